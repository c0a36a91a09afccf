package io.proofline.service;

import io.proofline.cli.Cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** A synthetic dev circuit (CLI {@code dev-circuit}) big enough that a job of a few partitions takes seconds. */
public final class DevCircuit {

    private DevCircuit() {
    }

    static synchronized Path bn128(int constraints) throws Exception {
        return bn128(constraints, 1);
    }

    /** As {@link #bn128(int)}, on a domain of at least {@code domain}: a/b/c and H dominate the key and a proof. */
    public static synchronized Path bn128(int constraints, int domain) throws Exception {
        Path dir = Path.of("target", "dev-circuit-bn128-" + constraints + (domain > 1 ? "-domain-" + domain : ""));
        if (!Files.exists(dir.resolve("witness.wtns"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int rc = Cli.run(new String[]{"dev-circuit", "--curve", "bn128", "--constraints",
                    Integer.toString(constraints), "--domain", Integer.toString(domain), "--out", dir.toString()},
                    new PrintStream(out), new PrintStream(out));
            if (rc != 0) {
                throw new IllegalStateException("dev-circuit failed: " + out);
            }
        }
        return dir;
    }
}

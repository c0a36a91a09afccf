package io.proofline.snark.prover;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the pinned snarkjs ({@code scripts/install-node-tools.sh} installs it into {@code .fixtures/node_modules};
 * the {@code SNARKJS} environment variable may point elsewhere). Tests that need it are skipped, with a message, when
 * node or snarkjs is absent.
 */
final class Snarkjs {

    private Snarkjs() {
    }

    static Path executable() {
        String env = System.getenv("SNARKJS");
        Path p = env != null ? Path.of(env) : Path.of(".fixtures/node_modules/.bin/snarkjs");
        return Files.isExecutable(p) ? p : null;
    }

    /** Skips the calling test when snarkjs cannot be run. */
    static void assumeAvailable() {
        assumeTrue(executable() != null,
                "snarkjs not installed (run scripts/install-node-tools.sh or set SNARKJS): snarkjs check skipped");
    }

    /** {@code snarkjs groth16 verify vk public proof}: whether snarkjs printed OK and exited 0. */
    static boolean verify(Path vk, Path publicJson, Path proofJson) throws Exception {
        Result r = run("groth16", "verify", vk.toString(), publicJson.toString(), proofJson.toString());
        return r.exit == 0 && r.output.contains("OK!");
    }

    record Result(int exit, String output) {
    }

    static Result run(String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(executable().toString());
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(300, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("snarkjs timed out: " + cmd);
        }
        return new Result(p.exitValue(), out);
    }
}

package io.proofline.web;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * {@code snarkjs groth16 verify} for service tests: {@code .fixtures/node_modules/.bin/snarkjs} (installed by
 * {@code scripts/install-node-tools.sh}) or {@code $SNARKJS}; absent means the caller skips with a message.
 */
final class SnarkjsCli {

    private SnarkjsCli() {
    }

    static Path executable() {
        String env = System.getenv("SNARKJS");
        Path p = env != null ? Path.of(env) : Path.of(".fixtures/node_modules/.bin/snarkjs");
        return Files.isExecutable(p) ? p : null;
    }

    static boolean verify(Path vk, Path publicJson, Path proofJson) throws Exception {
        Process p = new ProcessBuilder(executable().toString(), "groth16", "verify", vk.toString(),
                publicJson.toString(), proofJson.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("snarkjs timed out");
        }
        return p.exitValue() == 0 && out.contains("OK!");
    }
}

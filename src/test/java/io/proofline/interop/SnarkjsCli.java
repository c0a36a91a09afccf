package io.proofline.interop;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the pinned snarkjs ({@code scripts/install-node-tools.sh} puts it in {@code .fixtures/node_modules/.bin};
 * the environment variable {@code SNARKJS} may point elsewhere) from interop tests. Tests call
 * {@link #assumeAvailable()} first: without node or snarkjs they are skipped with a message saying what is missing
 * and how to install it, rather than failing.
 */
public final class SnarkjsCli {

    private static final Path DEFAULT = Path.of(".fixtures/node_modules/.bin/snarkjs");
    private static final long TIMEOUT_SECONDS = 120;

    /** What a run printed and how it ended. */
    public record Result(int exitCode, String output) {
        public boolean ok() {
            return exitCode == 0;
        }
    }

    private SnarkjsCli() {
    }

    /** The snarkjs executable to use. */
    public static Path executable() {
        String env = System.getenv("SNARKJS");
        return env != null && !env.isBlank() ? Path.of(env) : DEFAULT;
    }

    /** Skips the calling test, with the reason, unless node and snarkjs can be run. */
    public static void assumeAvailable() {
        Path exe = executable();
        Assumptions.assumeTrue(Files.isExecutable(exe),
                "snarkjs interop test skipped: " + exe.toAbsolutePath() + " not found "
                        + "(run scripts/install-node-tools.sh, or set SNARKJS)");
        Assumptions.assumeTrue(nodeOnPath(), "snarkjs interop test skipped: node is not on PATH");
    }

    private static boolean nodeOnPath() {
        try {
            Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Runs {@code snarkjs args...}, e.g. {@code run("groth16", "verify", vk, pub, proof)}. */
    public static Result run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(executable().toAbsolutePath().toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("snarkjs " + String.join(" ", args) + " did not finish in " + TIMEOUT_SECONDS + " s");
        }
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}

package io.proofline.container;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The podman CLI as the container tests drive it: a real engine, the commands a user types. Podman reads
 * {@code docker/podman/containers.conf} (runc, no default ulimits: what CI's machines need) unless
 * {@code CONTAINERS_CONF} names another file. Where no engine answers, or an image the test needs was not built
 * ({@code scripts/container-test.sh images}), the test is skipped with the reason, never failed.
 */
final class Podman {

    /** The images the tests run; {@code scripts/container-test.sh} builds them under these names. */
    static final String IMAGE = env("PROOFLINE_IMAGE", "localhost/proofline:test");
    static final String PG_IMAGE = env("PROOFLINE_PG_IMAGE", "localhost/proofline-postgres:15");
    static final String PROMETHEUS_IMAGE = env("PROOFLINE_PROMETHEUS_IMAGE", "localhost/proofline-prometheus:latest");

    static final Path CONTAINERS_CONF = Path.of(env("CONTAINERS_CONF",
            Path.of("docker", "podman", "containers.conf").toAbsolutePath().toString()));

    /** What a command printed and how it ended. */
    record Result(int exit, String out, String err) {

        Result check(String what) {
            if (exit != 0) {
                throw new IllegalStateException(what + " exited " + exit + ": " + err.strip() + " " + out.strip());
            }
            return this;
        }
    }

    private static Optional<String> unavailable;

    private Podman() {
    }

    private static String env(String name, String otherwise) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? otherwise : v;
    }

    /** Skips the calling test unless podman runs containers here and every one of {@code images} exists. */
    static void requireImages(String... images) {
        unavailableReason().ifPresent(reason -> Assumptions.abort("container test skipped: " + reason));
        for (String image : images) {
            if (run(Duration.ofSeconds(30), "image", "exists", image).exit() != 0) {
                Assumptions.abort("container test skipped: no image " + image
                        + " (scripts/container-test.sh images builds it)");
            }
        }
    }

    static synchronized Optional<String> unavailableReason() {
        if (unavailable == null) {
            unavailable = probe();
        }
        return unavailable;
    }

    private static Optional<String> probe() {
        try {
            Result info = run(Duration.ofSeconds(60), "info", "--format", "{{.Host.OCIRuntime.Name}}");
            return info.exit() == 0 ? Optional.empty()
                    : Optional.of("podman cannot start here: " + info.err().strip());
        } catch (IllegalStateException e) {
            return Optional.of("no podman (Debian: apt-get install podman runc): " + e.getMessage());
        }
    }

    /** {@code podman args...}, which must succeed within five minutes; answers what it printed. */
    static String exec(String... args) {
        return run(Duration.ofMinutes(5), args).check("podman " + String.join(" ", args)).out().strip();
    }

    /** {@code podman args...} within {@code timeout}; answers how it ended. */
    static Result run(Duration timeout, String... args) {
        List<String> command = new ArrayList<>(List.of("podman"));
        command.addAll(List.of(args));
        return runCommand(timeout, null, command);
    }

    /** Any command with podman's settings (podman-compose), in {@code dir} (null: here). */
    static Result runCommand(Duration timeout, Path dir, List<String> command) {
        try {
            Path out = Files.createTempFile("podman", ".out");
            Path err = Files.createTempFile("podman", ".err");
            try {
                ProcessBuilder pb = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile());
                if (dir != null) {
                    pb.directory(dir.toFile());
                }
                pb.environment().put("CONTAINERS_CONF", CONTAINERS_CONF.toString());
                Process p = pb.start();
                if (!p.waitFor(timeout.toSeconds(), TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor();
                    throw new IllegalStateException(String.join(" ", command) + " did not end within " + timeout);
                }
                return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + String.join(" ", command) + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code podman inspect --format FORMAT name}. */
    static String inspect(String name, String format) {
        return exec("inspect", "--format", format, name);
    }

    /** Removes containers and volumes made by a test, whatever state they are in. */
    static void removeQuietly(List<String> containers, List<String> volumes) {
        for (String c : containers) {
            run(Duration.ofMinutes(2), "rm", "-f", "-v", "-t", "0", c);
        }
        for (String v : volumes) {
            run(Duration.ofMinutes(1), "volume", "rm", "-f", v);
        }
    }
}

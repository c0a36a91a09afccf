package io.proofline.service;

import io.proofline.web.Api;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The service in a child JVM (the test's class path, {@code io.proofline.Proofline serve} unless a {@link Launch} says
 * otherwise), for crash and multi-instance tests: {@link #kill()} is {@code destroyForcibly} (SIGKILL, like
 * {@code kill -9}), {@link #terminate} is SIGTERM.
 */
final class ServiceProcess implements AutoCloseable {

    static final String API_KEY = "child-key";

    /**
     * How to launch the child: its main class with its first arguments, extra JVM options, and the API keys it takes.
     */
    record Launch(List<String> main, List<String> jvmOptions, List<String> apiKeys) {

        /** {@code proofline serve}, as a user starts the service, with one API key. */
        static final Launch SERVE = new Launch(List.of("io.proofline.Proofline", "serve"), List.of(),
                List.of(API_KEY));

        /** The service whose synthesis of a partition of {@code circuitId} halts the JVM ({@link PoisonedServiceMain}). */
        static Launch poisoned(String circuitId, List<String> apiKeys) {
            return new Launch(List.of(PoisonedServiceMain.class.getName()),
                    List.of("-D" + PoisonedServiceMain.POISON + "=" + circuitId), apiKeys);
        }
    }

    /** The child exited before it was ready (a poison job it picked up at once, say). */
    static final class ExitedException extends IllegalStateException {
        final int status;
        final Path log;

        ExitedException(int status, Path log) {
            super("the service exited with " + status + " before it was ready; see " + log);
            this.status = status;
            this.log = log;
        }
    }

    private final Process process;
    private final int port;
    private final Path log;
    private final List<String> apiKeys;

    private ServiceProcess(Process process, int port, Path log, List<String> apiKeys) {
        this.process = process;
        this.port = port;
        this.log = log;
        this.apiKeys = apiKeys;
    }

    static ServiceProcess start(String name, Map<String, String> properties) throws Exception {
        return start(name, properties, Launch.SERVE);
    }

    static ServiceProcess start(String name, Map<String, String> properties, Launch launch) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx1g"));
        cmd.addAll(launch.jvmOptions());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path")));
        cmd.addAll(launch.main());
        cmd.addAll(List.of("--server.port=" + port,
                "--proofline.security.api-keys=" + String.join(",", launch.apiKeys()),
                "--proofline.security.admin-password=pw", "--spring.main.banner-mode=off"));
        properties.forEach((k, v) -> cmd.add("--" + k + "=" + v));
        Path log = Path.of("target", "child-" + name + "-" + System.nanoTime() + ".log");
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServiceProcess service = new ServiceProcess(p, port, log, launch.apiKeys());
        try {
            service.awaitReady(Duration.ofSeconds(180));
        } catch (Exception e) {
            service.close();
            throw e;
        }
        return service;
    }

    Api api() {
        return new Api(port, apiKeys.getFirst());
    }

    /** The API as the holder of {@code apiKey} (one of the launch's keys) calls it. */
    Api api(String apiKey) {
        return new Api(port, apiKey);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Waits for the process to exit by itself; its exit status, or -1 if it still runs after {@code timeout}. */
    int awaitExit(Duration timeout) throws InterruptedException {
        return process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS) ? process.exitValue()
                : -1;
    }

    long pid() {
        return process.pid();
    }

    private void awaitReady(Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        Api anonymous = new Api(port, null);
        while (System.nanoTime() < end) {
            if (!process.isAlive()) {
                throw new ExitedException(process.exitValue(), log);
            }
            try {
                if (anonymous.get("/actuator/health/readiness").status() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("the service did not become ready in " + timeout + "; see " + log);
    }

    /** SIGKILL: no shutdown hook, no graceful anything. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** SIGTERM: the graceful shutdown path. */
    int terminate(Duration timeout) throws InterruptedException {
        process.destroy();
        if (!process.waitFor(timeout.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
        return process.exitValue();
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    Path logFile() {
        return log;
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}

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
 * The service in a child JVM (the test's class path, {@code io.proofline.Proofline serve}), for crash and
 * multi-instance tests: {@link #kill()} is {@code destroyForcibly} (SIGKILL, like {@code kill -9}).
 */
final class ServiceProcess implements AutoCloseable {

    static final String API_KEY = "child-key";

    private final Process process;
    private final int port;
    private final Path log;

    private ServiceProcess(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static ServiceProcess start(String name, Map<String, String> properties) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx1g", "-cp", System.getProperty("java.class.path"),
                "io.proofline.Proofline", "serve", "--server.port=" + port,
                "--proofline.security.api-keys=" + API_KEY, "--proofline.security.admin-password=pw",
                "--spring.main.banner-mode=off"));
        properties.forEach((k, v) -> cmd.add("--" + k + "=" + v));
        Path log = Path.of("target", "child-" + name + "-" + System.nanoTime() + ".log");
        Files.createDirectories(log.getParent());
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        ServiceProcess service = new ServiceProcess(p, port, log);
        service.awaitReady(Duration.ofSeconds(120));
        return service;
    }

    Api api() {
        return new Api(port, API_KEY);
    }

    long pid() {
        return process.pid();
    }

    private void awaitReady(Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        Api anonymous = new Api(port, null);
        while (System.nanoTime() < end) {
            if (!process.isAlive()) {
                throw new IllegalStateException("the service exited with " + process.exitValue() + "; see " + log);
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

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}

package io.proofline.container;

import io.proofline.web.Api;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A Proofline container started as a user starts one ({@code podman run -d -p PORT:8080 ... IMAGE [command]}), with
 * an API key and an admin password of the tests and whatever else the test passes (a volume, a memory limit, a
 * network, environment). The service is reached from outside the container, over the published port.
 */
final class ProoflineContainer implements AutoCloseable {

    static final String API_KEY = "container-test-key";
    static final String ADMIN_PASSWORD = "container-test-admin";

    final String name;
    final int port;
    private final long startedNanos;

    private ProoflineContainer(String name, int port, long startedNanos) {
        this.name = name;
        this.port = port;
        this.startedNanos = startedNanos;
    }

    /** {@code podman run -d --name NAME -p 127.0.0.1:PORT:8080 -e (key, password) OPTIONS IMAGE COMMAND}. */
    static ProoflineContainer start(String name, List<String> options, String... command) throws IOException {
        int port = freePort();
        List<String> args = new ArrayList<>(List.of("run", "-d", "--name", name, "-p", "127.0.0.1:" + port + ":8080",
                "-e", "PROOFLINE_SECURITY_API_KEYS=" + API_KEY,
                "-e", "PROOFLINE_SECURITY_ADMIN_PASSWORD=" + ADMIN_PASSWORD));
        args.addAll(options);
        args.add(Podman.IMAGE);
        args.addAll(List.of(command));
        long started = System.nanoTime();
        Podman.exec(args.toArray(String[]::new));
        return new ProoflineContainer(name, port, started);
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    Api api() {
        return new Api(port, API_KEY);
    }

    /**
     * Waits until {@code /actuator/health/readiness} answers 200 (UP) from outside; answers the time from
     * {@code podman run} to then. Fails with the container's log when it stops first.
     */
    Duration awaitReady(Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        Api anonymous = new Api(port, null);
        while (System.nanoTime() < end) {
            try {
                Api.Response r = anonymous.get("/actuator/health/readiness");
                if (r.status() == 200 && r.json().get("status").asString().equals("UP")) {
                    return Duration.ofNanos(System.nanoTime() - startedNanos);
                }
            } catch (IOException notYet) {
                // the port is published before the JVM listens
            }
            if (!running()) {
                throw new IllegalStateException(name + " stopped (exit " + exitCode() + ") before it was ready:\n"
                        + logs());
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException(name + " was not ready within " + timeout + ":\n" + logs());
    }

    boolean running() {
        return Podman.inspect(name, "{{.State.Running}}").equals("true");
    }

    int exitCode() {
        return Integer.parseInt(Podman.inspect(name, "{{.State.ExitCode}}"));
    }

    /** Whether the kernel's OOM killer ended the container ({@code State.OOMKilled}, from conmon's cgroup watch). */
    boolean oomKilled() {
        return Podman.inspect(name, "{{.State.OOMKilled}}").equals("true");
    }

    String logs() {
        Podman.Result r = Podman.run(Duration.ofMinutes(1), "logs", name);
        return r.out() + r.err();
    }

    /** Inside the running container, as its user: {@code podman exec NAME command...}. */
    String exec(String... command) {
        List<String> args = new ArrayList<>(List.of("exec", name));
        args.addAll(List.of(command));
        return Podman.exec(args.toArray(String[]::new));
    }

    /** {@code podman stop -t SECONDS}: SIGTERM, then SIGKILL after the grace period. */
    void stop(int graceSeconds) {
        Podman.exec("stop", "-t", Integer.toString(graceSeconds), name);
    }

    /** {@code podman kill}: SIGKILL. */
    void kill() {
        Podman.exec("kill", name);
    }

    /** Waits until the container has ended; answers whether it did within {@code timeout}. */
    boolean awaitExit(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (!running()) {
                return true;
            }
            Thread.sleep(500);
        }
        return false;
    }

    private volatile long watchedOomKills;
    private volatile long watchedMaxUsage;
    private Thread watcher;

    /**
     * Watches the container's memory cgroup from the host (cgroup v1: {@code memory.oom_control}'s {@code oom_kill},
     * {@code memory.max_usage_in_bytes}; v2: {@code memory.events}, {@code memory.peak}) every 50 ms while it exists,
     * so that a kill is counted even though the cgroup goes with the container.
     */
    void watchCgroup() {
        String cgroup = Podman.inspect(name, "{{.State.CgroupPath}}");
        java.nio.file.Path v1 = java.nio.file.Path.of("/sys/fs/cgroup/memory" + cgroup);
        java.nio.file.Path v2 = java.nio.file.Path.of("/sys/fs/cgroup" + cgroup);
        watcher = Thread.ofVirtual().name("cgroup-watch-" + name).start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    if (java.nio.file.Files.exists(v1.resolve("memory.oom_control"))) {
                        watchedOomKills = Math.max(watchedOomKills, field(java.nio.file.Files.readString(
                                v1.resolve("memory.oom_control")), "oom_kill"));
                        watchedMaxUsage = Math.max(watchedMaxUsage, Long.parseLong(java.nio.file.Files.readString(
                                v1.resolve("memory.max_usage_in_bytes")).strip()));
                    } else if (java.nio.file.Files.exists(v2.resolve("memory.events"))) {
                        watchedOomKills = Math.max(watchedOomKills, field(java.nio.file.Files.readString(
                                v2.resolve("memory.events")), "oom_kill"));
                    }
                    Thread.sleep(50);
                } catch (IOException | RuntimeException gone) {
                    // the cgroup went with the container, or is between reads
                    try {
                        Thread.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    long watchedOomKills() {
        return watchedOomKills;
    }

    long watchedMaxUsage() {
        return watchedMaxUsage;
    }

    private static long field(String text, String key) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^" + key + " (\\d+)$").matcher(text);
        return m.find() ? Long.parseLong(m.group(1)) : 0;
    }

    @Override
    public void close() {
        if (watcher != null) {
            watcher.interrupt();
        }
        Podman.run(Duration.ofMinutes(2), "rm", "-f", "-v", "-t", "0", name);   // -v: its anonymous volumes too
    }
}

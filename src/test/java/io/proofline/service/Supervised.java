package io.proofline.service;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A service instance kept alive as an orchestrator (a Kubernetes Deployment) keeps a pod: whenever its process exits
 * — killed, terminated, or halted by a poison job — a new process is started on the same settings. For tests that kill
 * instances while they work ({@link ChaosTest}).
 */
final class Supervised implements AutoCloseable {

    private final String name;
    private final Map<String, String> properties;
    private final ServiceProcess.Launch launch;
    private final Thread keeper;
    /** Every incarnation's log file, in order. */
    private final List<Path> logs = new CopyOnWriteArrayList<>();
    /** Every incarnation's exit status, in order. */
    private final List<Integer> exits = new CopyOnWriteArrayList<>();
    private volatile ServiceProcess current;
    private volatile boolean closed;

    Supervised(String name, Map<String, String> properties, ServiceProcess.Launch launch) {
        this.name = name;
        this.properties = properties;
        this.launch = launch;
        this.keeper = Thread.ofPlatform().daemon().name("keeper-" + name).start(this::keep);
    }

    private void keep() {
        for (int incarnation = 1; !closed; incarnation++) {
            ServiceProcess process;
            try {
                process = ServiceProcess.start(name + "-" + incarnation, properties, launch);
            } catch (ServiceProcess.ExitedException e) {
                logs.add(e.log);
                exits.add(e.status);
                continue;
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                sleep(Duration.ofSeconds(1));
                continue;
            }
            logs.add(process.logFile());
            current = process;
            try {
                int status;
                while ((status = process.awaitExit(Duration.ofSeconds(1))) < 0 && !closed) {
                    // running
                }
                current = null;
                if (status >= 0) {
                    exits.add(status);
                }
                if (closed) {
                    process.close();
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** The running process once it is ready; waits for one. */
    ServiceProcess awaitUp(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            ServiceProcess p = current;
            if (p != null && p.isAlive()) {
                return p;
            }
            Thread.sleep(100);
        }
        throw new AssertionError(name + " was not up within " + timeout + "; exits so far: " + exits);
    }

    /** The running process, if one is up now. */
    ServiceProcess up() {
        ServiceProcess p = current;
        return p != null && p.isAlive() ? p : null;
    }

    /** SIGKILL to the running process, if any (it is restarted). */
    boolean kill() throws InterruptedException {
        ServiceProcess p = current;
        if (p == null || !p.isAlive()) {
            return false;
        }
        p.kill();
        return true;
    }

    /** SIGTERM to the running process, waiting for its graceful exit (it is restarted); its exit status. */
    int terminate(Duration timeout) throws InterruptedException {
        ServiceProcess p = awaitUp(Duration.ofMinutes(3));
        return p.terminate(timeout);
    }

    List<Integer> exits() {
        return List.copyOf(exits);
    }

    /** What every incarnation logged, in order. */
    String logs() throws IOException {
        StringBuilder all = new StringBuilder();
        for (Path log : logs) {
            if (Files.exists(log)) {
                all.append(Files.readString(log));
            }
        }
        return all.toString();
    }

    @Override
    public void close() throws InterruptedException {
        closed = true;
        ServiceProcess p = current;
        if (p != null) {
            p.close();
        }
        keeper.join(Duration.ofMinutes(4));
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}

package io.proofline.deploy;

import io.proofline.web.Api;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service started exactly as the README starts it — {@code PROOFLINE_MEMORY_LIMIT=<limit> bin/proofline serve},
 * so the heap and the other JVM caps come from {@code heap-opts}, every size setting at its default — with an API
 * key, a metrics password and a data directory of its own, on a free port. The launcher {@code exec}s the JVM, so the
 * process's pid is the service's. For memory tests: its RSS, its own Prometheus figures, a forced GC.
 */
final class ServedAsUser implements AutoCloseable {

    static final String API_KEY = "served-key";
    static final String METRICS_PASSWORD = "served-metrics";

    private final Process process;
    private final int port;
    private final Path log;

    private ServedAsUser(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    static ServedAsUser start(Path dir, String memoryLimit) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path jar = ReadmeCommandsTest.classPathJar(dir.resolve("proofline.jar"));
        Path log = dir.resolve("service.log");
        ProcessBuilder serve = new ProcessBuilder("bin/proofline", "serve", "--server.port=" + port)
                .redirectErrorStream(true).redirectOutput(log.toFile());
        serve.environment().putAll(Map.of("JAVA_HOME", System.getProperty("java.home"),
                "PROOFLINE_JAR", jar.toString(), "PROOFLINE_AOT_CACHE", "", "PROOFLINE_MEMORY_LIMIT", memoryLimit,
                "PROOFLINE_SECURITY_API_KEYS", API_KEY, "PROOFLINE_SECURITY_ADMIN_PASSWORD", "served",
                "PROOFLINE_SECURITY_METRICS_PASSWORD", METRICS_PASSWORD,
                "PROOFLINE_STORE_DATA_DIR", dir.resolve("data").toString(),
                "PROOFLINE_CONSOLE_DEMO_ENABLED", "false"));
        ServedAsUser service = new ServedAsUser(serve.start(), port, log);
        try {
            service.awaitReady(Duration.ofMinutes(3));
        } catch (Exception | AssertionError e) {
            service.close();
            throw e;
        }
        return service;
    }

    Api api() {
        return new Api(port, API_KEY);
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String log() throws IOException {
        return Files.readString(log);
    }

    /** The process's resident set ({@code VmRSS}) now. */
    long rssBytes() throws IOException {
        return statusField("VmRSS");
    }

    /** Its high-water mark ({@code VmHWM}). */
    long rssPeakBytes() throws IOException {
        return statusField("VmHWM");
    }

    private long statusField(String field) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid()), "status"))) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IllegalStateException("no " + field + " for " + pid());
    }

    /** A full collection in the service, as an operator forces one ({@code jcmd <pid> GC.run}). */
    void forceGc() throws Exception {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Process p = new ProcessBuilder(jcmd.toString(), Long.toString(pid()), "GC.run").redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new AssertionError("jcmd GC.run failed: " + out);
        }
    }

    /** The service's own {@code /actuator/prometheus} text, read as Prometheus reads it (the metrics user). */
    String prometheus() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/actuator/prometheus"))
                .header("Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        ("metrics:" + METRICS_PASSWORD).getBytes(StandardCharsets.UTF_8)))
                .timeout(Duration.ofSeconds(30)).build();
        HttpResponse<String> r = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new AssertionError("/actuator/prometheus answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** One sample of {@code name} (with {@code labels}, e.g. {@code figure="heap"}, or none) in {@code text}. */
    static double sample(String text, String name, String labels) {
        Pattern p = Pattern.compile("^" + Pattern.quote(name)
                + (labels.isEmpty() ? "(\\{[^}]*})?" : "\\{[^}]*" + Pattern.quote(labels) + "[^}]*}")
                + " ([0-9.eE+-]+)$", Pattern.MULTILINE);
        Matcher m = p.matcher(text);
        if (!m.find()) {
            throw new AssertionError("no sample of " + name + " " + labels);
        }
        return Double.parseDouble(m.group(m.groupCount()));
    }

    private void awaitReady(Duration timeout) throws Exception {
        Api anonymous = new Api(port, null);
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            if (!process.isAlive()) {
                throw new AssertionError("the service exited with " + process.exitValue() + ": " + log());
            }
            try {
                if (anonymous.get("/actuator/health/readiness").status() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("not ready in " + timeout + ": " + log());
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor();
        }
    }
}

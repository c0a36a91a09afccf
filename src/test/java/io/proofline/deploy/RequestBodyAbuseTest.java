package io.proofline.deploy;

import io.proofline.web.Api;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The request side of issue #32 against the service as a new user runs it: {@code PROOFLINE_MEMORY_LIMIT=2GB
 * bin/proofline serve} (so the heap from {@code heap-opts}), every size setting at its default (max-job-size 256 MB,
 * body-read-timeout 2 min). Each abusive request is answered (413, 408, 422, 429/503, or accepted and then proved or
 * FAILED with a reason); afterwards the service is the same process, its peak RSS ({@code VmHWM}) stayed within the
 * limit, health is UP, and a good job proves. Bodies are streamed from generators: the test never holds one.
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RequestBodyAbuseTest {

    private static final List<String> KEYS = List.of("abuse-key-0", "abuse-key-1", "abuse-key-2", "abuse-key-3",
            "abuse-key-4");
    private static final Path POSEIDON = Path.of("src/test/resources/fixtures/bn128/poseidon_hash");
    private static final long MB = 1_000_000;
    /** The limit the service runs under: 2GB in Spring's (and heap-opts') grammar is 2 GiB. */
    private static final long LIMIT_BYTES = 2L << 30;

    private Path dir;
    private Process service;
    private long pid;
    private int port;
    private Api api;
    private String circuit;
    private final List<String> answers = new ArrayList<>();

    @BeforeAll
    void start() throws Exception {
        dir = Files.createTempDirectory("proofline-request-abuse");
        Path jar = ReadmeCommandsTest.classPathJar(dir.resolve("proofline.jar"));
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path log = dir.resolve("service.log");
        ProcessBuilder serve = new ProcessBuilder("bin/proofline", "serve").redirectErrorStream(true)
                .redirectOutput(log.toFile());
        serve.environment().putAll(Map.of("JAVA_HOME", System.getProperty("java.home"),
                "PROOFLINE_JAR", jar.toString(), "PROOFLINE_AOT_CACHE", "", "PROOFLINE_MEMORY_LIMIT", "2GB",
                "PROOFLINE_SECURITY_API_KEYS", String.join(",", KEYS), "PROOFLINE_SECURITY_ADMIN_PASSWORD", "abuse",
                "PROOFLINE_STORE_DATA_DIR", dir.resolve("data").toString(), "PORT", Integer.toString(port)));
        service = serve.start();
        pid = service.pid(); // bin/proofline execs the JVM: this is the service's own process
        api = new Api(port, KEYS.getFirst());
        awaitReady(log);
        JsonNode registered = api.registerCircuit(Map.of("zkey", Files.readAllBytes(POSEIDON.resolve("circuit.zkey")),
                "wasm", Files.readAllBytes(POSEIDON.resolve("circuit.wasm"))), Map.of("name", "poseidon"));
        circuit = registered.get("id").asString();
        long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (!"READY".equals(api.get("/api/v1/circuits/" + circuit).json().get("state").asString())) {
            assertThat(System.nanoTime() < end).as("the circuit became READY").isTrue();
            Thread.sleep(200);
        }
    }

    @AfterAll
    void stop() throws Exception {
        if (service != null) {
            service.destroy();
            if (!service.waitFor(60, TimeUnit.SECONDS)) {
                service.destroyForcibly();
            }
        }
    }

    @Test
    @Order(1)
    void a250MegabyteJobOfInputNumbersIsAnsweredWithoutHarm() throws Exception {
        Answer answer = post("/api/v1/jobs", KEYS.get(0), inputJob(250 * MB), 250 * MB, false);
        record("250 MB JSON input job", answer);
        assertThat(answer.status()).as(answer.text()).isIn(413, 422);
        assertThat(answer.text()).contains("partitions[0].input");
        assertSameHealthyProcess();
    }

    @Test
    @Order(2)
    void a50MegabyteJobOfOneSignalOfFiveMillionNumbersIsRefusedAtSubmit() throws Exception {
        Answer answer = post("/api/v1/jobs", KEYS.get(0), inputJob(50 * MB), 50 * MB, true);
        record("50 MB JSON input job (chunked)", answer);
        assertThat(answer.status()).as(answer.text()).isEqualTo(422);
        assertThat(answer.text()).contains("partitions[0].input").contains("more values");
        assertSameHealthyProcess();
    }

    @Test
    @Order(3)
    void aBodyPastTheJobLimitIs413NamingIt() throws Exception {
        Answer declared = post("/api/v1/jobs", KEYS.get(2), inputJob(300 * MB), 300 * MB, false);
        record("300 MB JSON job (Content-Length)", declared);
        assertThat(declared.status()).as(declared.text()).isEqualTo(413);
        assertThat(declared.text()).contains("proofline.store.max-job-size");
        Answer chunked = post("/api/v1/jobs", KEYS.get(2), inputJob(300 * MB), 300 * MB, true);
        record("300 MB JSON job (chunked)", chunked);
        assertThat(chunked.status()).as(chunked.text()).isEqualTo(413);
        assertThat(chunked.text()).contains("proofline.store.max-job-size");
        assertSameHealthyProcess();
    }

    @Test
    @Order(4)
    void a64LevelNestedInputIsRefused() throws Exception {
        String body = "{\"circuitId\":\"" + circuit + "\",\"partitions\":[{\"input\":{\"in\":" + "[".repeat(64) + "1"
                + "]".repeat(64) + "}}]}";
        byte[] bytes = body.getBytes(StandardCharsets.US_ASCII);
        Answer answer = post("/api/v1/jobs", KEYS.get(3), new java.io.ByteArrayInputStream(bytes), bytes.length,
                false);
        record("64-level nested input", answer);
        assertThat(answer.status()).as(answer.text()).isEqualTo(422);
        assertThat(answer.text()).contains("partitions[0].input").containsIgnoringCase("nest");
        assertSameHealthyProcess();
    }

    @Test
    @Order(5)
    void a250MegabyteVerifyBodyIs413() throws Exception {
        Answer declared = post("/api/v1/verify", KEYS.get(4), verifyBody(250 * MB), 250 * MB, false);
        record("250 MB /verify (Content-Length)", declared);
        assertThat(declared.status()).as(declared.text()).isEqualTo(413);
        assertThat(declared.text()).contains("proofline.store.max-public-signals");
        // chunked: cut at the body limit (413) or, first, at the verification's token count (422)
        Answer chunked = post("/api/v1/verify", KEYS.get(4), verifyBody(250 * MB), 250 * MB, true);
        record("250 MB /verify (chunked)", chunked);
        assertThat(chunked.status()).as(chunked.text()).isIn(413, 422);
        assertThat(chunked.text()).containsAnyOf("proofline.store.max-public-signals", "larger than a verification");
        assertSameHealthyProcess();
    }

    @Test
    @Order(6)
    void twoHundredSlowUploadsHoldNoWorkerPastTheDeadlineAndHealthAnswersWhileTheyHang() throws Exception {
        String[] paths = {"/api/v1/jobs", "/api/v1/circuits", "/api/v1/verify"};
        // one more that sends its headers and then nothing at all: Tomcat's upload timeout ends its read
        SlowUpload silent = new SlowUpload(port, "/api/v1/verify", KEYS.get(4), "application/json", false, false);
        List<SlowUpload> uploads = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            String path = paths[i % 3];
            String type = path.equals("/api/v1/circuits") ? "multipart/form-data; boundary=slow"
                    : "application/json";
            // half from one key (past its share: 429), half over the other four (past the instance's: 503)
            String key = i < 100 ? KEYS.getFirst() : KEYS.get(1 + i % (KEYS.size() - 1));
            uploads.add(new SlowUpload(port, path, key, type, i % 2 == 0, true));
        }
        // while they hang (the admitted ones trickle a byte a second): the probes and the API still answer
        Thread.sleep(5_000);
        Api anonymous = new Api(port, null);
        assertThat(anonymous.get("/actuator/health/liveness").status()).isEqualTo(200);
        assertThat(api.get("/api/v1/circuits/" + circuit).status()).isEqualTo(200);
        long deadline = System.nanoTime() + Duration.ofMinutes(4).toNanos();
        Map<Integer, Integer> byStatus = new java.util.TreeMap<>();
        Integer silentStatus = null;
        while (!uploads.isEmpty()) {
            if (silentStatus == null) {
                silentStatus = silent.poll();
            }
            assertThat(System.nanoTime() < deadline).as("every slow upload answered or cut within 4 minutes ("
                    + uploads.size() + " still open)").isTrue();
            for (var it = uploads.iterator(); it.hasNext(); ) {
                SlowUpload u = it.next();
                Integer status = u.poll();
                if (status != null) {
                    byStatus.merge(status, 1, Integer::sum);
                    it.remove();
                }
            }
            Thread.sleep(1_000);
        }
        while (silentStatus == null && (silentStatus = silent.poll()) == null) {
            assertThat(System.nanoTime() < deadline).as("the silent upload answered or cut").isTrue();
            Thread.sleep(1_000);
        }
        // Tomcat answers a read that waited past its upload timeout itself (408, its own error body): the time is
        // printed as a figure, not asserted (proofline.uploads.idle-timeout, 20 s, against the 2 min deadline)
        answers.add("a silent upload: " + silentStatus + " after " + silent.secondsOpen() + " s "
                + abbreviate(silent.answer));
        assertThat(silentStatus).as(silent.answer).isIn(0, 408);
        answers.add("200 slow uploads: " + byStatus + " (0: cut without an answer)");
        System.out.println("[abuse] 200 slow uploads: " + byStatus);
        assertThat(byStatus.keySet()).as("refused at once (429 per key, 503 per instance), or 408, or cut")
                .isSubsetOf(0, 408, 429, 503);
        assertThat(byStatus.getOrDefault(429, 0) + byStatus.getOrDefault(503, 0)).as("most refused at once")
                .isGreaterThanOrEqualTo(150);
        assertThat(byStatus).as("both the key's share and the instance's were reached").containsKeys(429, 503);
        assertSameHealthyProcess();
    }

    @Test
    @Order(7)
    void afterwardsTheSameProcessWithinItsLimitProvesAGoodJob() throws Exception {
        assertSameHealthyProcess();
        Api.Response submitted = api.postJson("/api/v1/jobs", "{\"circuitId\":\"" + circuit
                + "\",\"partitions\":[{\"input\":" + Files.readString(POSEIDON.resolve("input.json")) + "}]}");
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
        JsonNode job = api.awaitJob(submitted.json().get("id").asString(), Duration.ofMinutes(3));
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        long peak = status("VmHWM");
        answers.forEach(a -> System.out.println("[abuse] " + a));
        System.out.printf("[abuse] peak RSS (VmHWM) %d MiB of the %d MiB limit%n", peak >> 20, LIMIT_BYTES >> 20);
        assertThat(peak).as("peak RSS within PROOFLINE_MEMORY_LIMIT").isLessThan(LIMIT_BYTES);
    }

    private void record(String what, Answer answer) {
        String line = what + ": " + answer.status() + " " + abbreviate(answer.text()) + " (" + answer.sentBytes()
                / MB + " MB sent)";
        answers.add(line);
        System.out.println("[abuse] " + line);
    }

    private static String abbreviate(String text) {
        int body = text.indexOf("\r\n\r\n");
        String s = body >= 0 ? text.substring(body + 4) : text;
        if (text.contains("Transfer-Encoding: chunked") && s.indexOf("\r\n") > 0) {
            s = s.substring(s.indexOf("\r\n") + 2); // the first chunk's size line
        }
        return s.length() > 300 ? s.substring(0, 300) + "..." : s;
    }

    private void assertSameHealthyProcess() throws Exception {
        assertThat(service.isAlive()).as("the service is still running").isTrue();
        assertThat(service.pid()).isEqualTo(pid);
        JsonNode health = new Api(port, null).get("/actuator/health").json();
        assertThat(health.get("status").asString()).as(health.toString()).isEqualTo("UP");
        assertThat(status("VmHWM")).as("peak RSS within the limit").isLessThan(LIMIT_BYTES);
    }

    /** A {@code /proc/PID/status} figure in bytes (VmHWM: the peak resident set; VmRSS: the current one). */
    private long status(String field) throws IOException {
        Matcher m = Pattern.compile("(?m)^" + field + ":\\s+(\\d+) kB").matcher(
                Files.readString(Path.of("/proc", Long.toString(pid), "status")));
        assertThat(m.find()).isTrue();
        return Long.parseLong(m.group(1)) * 1024;
    }

    /** A job of one partition whose one signal holds numbers up to {@code bytes} of body. */
    private InputStream inputJob(long bytes) {
        return new GeneratedBody(("{\"circuitId\":\"" + circuit + "\",\"partitions\":[{\"input\":{\"in\":[")
                .getBytes(StandardCharsets.US_ASCII), "1234567,".getBytes(StandardCharsets.US_ASCII),
                "1]}}]}".getBytes(StandardCharsets.US_ASCII), bytes);
    }

    /** A verification whose public signals go on for {@code bytes}. */
    private static InputStream verifyBody(long bytes) {
        return new GeneratedBody("{\"proof\":{},\"publicSignals\":[".getBytes(StandardCharsets.US_ASCII),
                "\"12345678901234567890\",".getBytes(StandardCharsets.US_ASCII),
                "\"1\"]}".getBytes(StandardCharsets.US_ASCII), bytes);
    }

    /** How a request went: the status (0 when cut without one), the response, the body bytes the server took. */
    record Answer(int status, String text, long sentBytes) {
    }

    /**
     * Sends a request on a raw socket, the body streamed from {@code body} (with Content-Length {@code length}, or
     * chunked), stopping when the server answers or closes; then reads the answer.
     */
    private Answer post(String path, String key, InputStream body, long length, boolean chunked) throws Exception {
        try (Socket socket = new Socket("127.0.0.1", port); body) {
            socket.setSoTimeout(300_000);
            OutputStream out = new java.io.BufferedOutputStream(socket.getOutputStream(), 1 << 16);
            InputStream in = socket.getInputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nX-API-Key: " + key
                    + "\r\nContent-Type: application/json\r\nConnection: close\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + length + "\r\n") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            byte[] buffer = new byte[1 << 16];
            long sent = 0;
            try {
                for (int n; (n = body.read(buffer)) > 0; ) {
                    if (in.available() > 0) {
                        break; // answered before the end of the body
                    }
                    if (chunked) {
                        out.write((Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                    }
                    out.write(buffer, 0, n);
                    if (chunked) {
                        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    sent += n;
                }
                if (chunked) {
                    out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            } catch (SocketException closed) {
                // the server answered and closed while we sent
            }
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            try {
                for (int n; (n = in.read(buffer)) > 0; ) {
                    response.write(buffer, 0, n);
                }
            } catch (SocketException reset) {
                // closed after answering
            }
            String text = response.toString(StandardCharsets.UTF_8);
            int status = text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : 0;
            return new Answer(status, text, sent);
        }
    }

    /** A body of a head, a piece repeated up to the length, and a tail: made as it is read, never held. */
    static final class GeneratedBody extends InputStream {
        private final byte[] head;
        private final byte[] piece;
        private final byte[] tail;
        private final long length;
        private long position;

        GeneratedBody(byte[] head, byte[] piece, byte[] tail, long length) {
            this.head = head;
            this.piece = piece;
            this.tail = tail;
            this.length = length;
        }

        @Override
        public int read() {
            if (position >= length) {
                return -1;
            }
            long tailStart = length - tail.length;
            long p = position++;
            if (p < head.length) {
                return head[(int) p] & 0xff;
            }
            if (p >= tailStart) {
                return tail[(int) (p - tailStart)] & 0xff;
            }
            // whole pieces only before the tail: the filler between them is spaces (valid JSON whitespace)
            long inBody = p - head.length;
            long wholePieces = (tailStart - head.length) / piece.length;
            if (inBody / piece.length >= wholePieces) {
                return ' ';
            }
            return piece[(int) (inBody % piece.length)] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (position >= length) {
                return -1;
            }
            int n = (int) Math.min(len, length - position);
            for (int i = 0; i < n; i++) {
                b[off + i] = (byte) read();
            }
            return n;
        }
    }

    /**
     * One slow upload on its own socket: headers with a Content-Length of a megabyte and a valid key, then a byte a
     * second from a timer until the server answers or closes.
     */
    static final class SlowUpload {
        private static final java.util.concurrent.ScheduledExecutorService TRICKLE =
                java.util.concurrent.Executors.newScheduledThreadPool(2);
        private final Socket socket;
        private final java.util.concurrent.ScheduledFuture<?> trickle;
        private volatile boolean closed;

        private String answer = "";
        private final long opened = System.nanoTime();
        private long answeredAfter = -1;

        /** Seconds from opening to the answer (or the cut). */
        long secondsOpen() {
            return answeredAfter;
        }

        SlowUpload(int port, String path, String key, String type, boolean chunked, boolean trickles)
                throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(1);
            OutputStream out = socket.getOutputStream();
            out.write(("POST " + path + " HTTP/1.1\r\nHost: localhost\r\nX-API-Key: " + key + "\r\nContent-Type: "
                    + type + "\r\nConnection: close\r\n"
                    + (chunked ? "Transfer-Encoding: chunked\r\n" : "Content-Length: 1000000\r\n") + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            trickle = !trickles ? null : TRICKLE.scheduleAtFixedRate(() -> {
                try {
                    out.write(chunked ? "1\r\n \r\n".getBytes(StandardCharsets.US_ASCII) : new byte[]{' '});
                    out.flush();
                } catch (IOException e) {
                    closed = true;
                    throw new IllegalStateException(e); // ends the schedule
                }
            }, 0, 1, TimeUnit.SECONDS);
        }

        /** The answer's status once there is one (0: closed without one); null while it hangs. */
        Integer poll() throws IOException {
            byte[] buffer = new byte[4096];
            int n;
            try {
                n = socket.getInputStream().read(buffer);
            } catch (SocketTimeoutException nothingYet) {
                if (!closed) {
                    return null;
                }
                n = -1;
            } catch (SocketException reset) {
                n = -1;
            }
            if (trickle != null) {
                trickle.cancel(false);
            }
            answeredAfter = (System.nanoTime() - opened) / 1_000_000_000L;
            ByteArrayOutputStream response = new ByteArrayOutputStream();
            if (n > 0) {
                response.write(buffer, 0, n);
                socket.setSoTimeout(10_000); // the rest of the answer; the server closes after it
                try {
                    for (int m; (m = socket.getInputStream().read(buffer)) > 0; ) {
                        response.write(buffer, 0, m);
                    }
                } catch (IOException endedOrReset) {
                    // what came is the answer
                }
            }
            socket.close();
            String text = response.toString(StandardCharsets.US_ASCII);
            answer = text.length() > 400 ? text.substring(0, 400) : text;
            return text.startsWith("HTTP/1.1 ") ? Integer.parseInt(text.substring(9, 12)) : 0;
        }
    }

    private void awaitReady(Path log) throws Exception {
        Api anonymous = new Api(port, null);
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        while (System.nanoTime() < end) {
            assertThat(service.isAlive()).as("the service exited: %s", Files.readString(log)).isTrue();
            try {
                if (anonymous.get("/actuator/health/readiness").status() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("not ready: " + Files.readString(log));
    }
}

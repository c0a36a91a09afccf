package io.proofline.lab.bench;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;

/**
 * The REST API of a running Proofline service as {@code bench http} drives it: one Java {@link HttpClient} shared by
 * every bench client, the {@code X-API-Key} on each request, and a 429's {@code Retry-After} honoured (the per-key
 * rate limit is the service's, and a bench that ignores it measures the limiter).
 */
final class ServiceClient implements AutoCloseable {

    static final ObjectMapper JSON = JsonMapper.builder().build();
    private static final Duration UPLOAD_TIMEOUT = Duration.ofMinutes(30);
    private static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);

    /** A multipart part: a form field ({@code filename == null}) or a file, from memory or from disk. */
    record Part(String name, String filename, byte[] bytes, Path path) {
        static Part field(String name, String value) {
            return new Part(name, null, value.getBytes(StandardCharsets.UTF_8), null);
        }

        static Part file(String name, String filename, byte[] bytes) {
            return new Part(name, filename, bytes, null);
        }

        /** Streamed from disk: a zkey may be larger than the bench's heap should hold twice. */
        static Part file(String name, Path path) {
            return new Part(name, path.getFileName().toString(), null, path);
        }

        HttpRequest.BodyPublisher body() throws IOException {
            return path == null ? slices(bytes) : HttpRequest.BodyPublishers.ofFile(path);
        }
    }

    /** The pieces of a body from memory: a witness is sent in 1 MiB views of its array. */
    private static final int SLICE = 1 << 20;

    /**
     * {@code bytes} as a body of views of the array: {@code BodyPublishers.ofByteArray} copies the whole array into
     * 16 KiB buffers for every request, and with them the client sent a 33 MB witness at a third of the rate curl
     * does, which the bench then reported as the service's submit time (docs/lab/2026-12-05-submit-path.md).
     */
    static HttpRequest.BodyPublisher slices(byte[] bytes) {
        if (bytes.length == 0) {
            return HttpRequest.BodyPublishers.noBody();
        }
        Flow.Publisher<ByteBuffer> views = subscriber -> subscriber.onSubscribe(new Flow.Subscription() {
            private long demand;
            private boolean emitting;
            private boolean cancelled;
            private int next;
            private boolean completed;

            @Override
            public void request(long n) {
                synchronized (this) {
                    demand = demand + n < 0 ? Long.MAX_VALUE : demand + n;
                    if (emitting) {
                        return; // the loop below, further up this stack or on another thread, sends it
                    }
                    emitting = true;
                }
                while (true) {
                    ByteBuffer view;
                    synchronized (this) {
                        if (cancelled || completed || (demand == 0 && next < bytes.length)) {
                            emitting = false;
                            return;
                        }
                        if (next == bytes.length) {
                            completed = true;
                            view = null;
                        } else {
                            demand--;
                            int length = Math.min(SLICE, bytes.length - next);
                            view = ByteBuffer.wrap(bytes, next, length).slice();
                            next += length;
                        }
                    }
                    if (view == null) {
                        subscriber.onComplete();
                    } else {
                        subscriber.onNext(view);
                    }
                }
            }

            @Override
            public synchronized void cancel() {
                cancelled = true;
            }
        });
        return HttpRequest.BodyPublishers.fromPublisher(views, bytes.length);
    }

    /** An answer that was not the expected status. */
    static final class CallFailedException extends IOException {
        CallFailedException(String what, HttpResponse<String> response) {
            super(what + ": HTTP " + response.statusCode() + " " + abbreviate(response.body()));
        }

        private static String abbreviate(String body) {
            return body.length() <= 300 ? body : body.substring(0, 300) + "...";
        }
    }

    private final URI base;
    private final String apiKey;
    private final HttpClient http;

    ServiceClient(URI base, String apiKey) {
        this.base = base;
        this.apiKey = apiKey;
        this.http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10))
                .executor(Executors.newVirtualThreadPerTaskExecutor())
                .build();
    }

    /**
     * {@code POST /api/v1/circuits} with the zkey, then, while the service checks the key (202, REGISTERING), polls
     * the circuit until it is READY; answers the circuit's JSON.
     *
     * @throws IOException when the registration is refused or the circuit FAILED its check (with the reason)
     */
    JsonNode registerCircuit(Path zkey, String name) throws IOException, InterruptedException {
        List<Part> parts = List.of(Part.file("zkey", zkey), Part.field("name", name));
        JsonNode circuit = expect("register circuit",
                send(multipart("/api/v1/circuits", parts).timeout(UPLOAD_TIMEOUT)), 200, 201, 202);
        String id = circuit.path("id").asString();
        long deadline = System.nanoTime() + UPLOAD_TIMEOUT.toNanos();
        long pollMs = 50;
        while ("REGISTERING".equals(circuit.path("state").asString())) {
            if (System.nanoTime() > deadline) {
                throw new IOException("circuit " + id + " still REGISTERING after " + UPLOAD_TIMEOUT);
            }
            Thread.sleep(pollMs);
            pollMs = Math.min(1000, 2 * pollMs);
            circuit = circuit(id);
        }
        if ("FAILED".equals(circuit.path("state").asString())) {
            throw new IOException("circuit " + id + " FAILED its check: " + circuit.path("failure").asString());
        }
        return circuit;
    }

    JsonNode circuit(String id) throws IOException, InterruptedException {
        return expect("circuit " + id, send(get("/api/v1/circuits/" + id)), 200);
    }

    String verificationKey(String circuitId) throws IOException, InterruptedException {
        HttpResponse<String> r = send(get("/api/v1/circuits/" + circuitId + "/verification-key"));
        expect("verification key of " + circuitId, r, 200);
        return r.body();
    }

    /** A multipart job of one {@code .wtns} per partition; answers the job's id. */
    String submitWitnesses(String circuitId, List<byte[]> witnesses) throws IOException, InterruptedException {
        List<Part> parts = new ArrayList<>();
        parts.add(Part.field("circuitId", circuitId));
        for (int i = 0; i < witnesses.size(); i++) {
            parts.add(Part.file("witness", "p" + i + ".wtns", witnesses.get(i)));
        }
        return expect("submit", send(multipart("/api/v1/jobs", parts)), 202, 200).get("id").asString();
    }

    /** A JSON job of one circuit input per partition (the circuit needs its wasm); answers the job's id. */
    String submitInputs(String circuitId, List<JsonNode> inputs) throws IOException, InterruptedException {
        var body = JSON.createObjectNode().put("circuitId", circuitId);
        var partitions = body.putArray("partitions");
        inputs.forEach(input -> partitions.addObject().set("input", input));
        HttpRequest.Builder request = request("/api/v1/jobs").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        return expect("submit", send(request), 202, 200).get("id").asString();
    }

    JsonNode job(String id) throws IOException, InterruptedException {
        return expect("job " + id, send(get("/api/v1/jobs/" + id)), 200);
    }

    /** {@code GET /api/v1/jobs/{id}?waitSeconds=N}: the job once it has ended, or its state after that long. */
    JsonNode awaitJob(String id, int waitSeconds) throws IOException, InterruptedException {
        return expect("job " + id, send(get("/api/v1/jobs/" + id + "?waitSeconds=" + waitSeconds)), 200);
    }

    JsonNode proofs(String jobId) throws IOException, InterruptedException {
        return expect("proofs of " + jobId, send(get("/api/v1/jobs/" + jobId + "/proof")), 200);
    }

    JsonNode pipeline() throws IOException, InterruptedException {
        return expect("pipeline", send(get("/api/v1/pipeline")), 200);
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(CALL_TIMEOUT).header("X-API-Key", apiKey);
    }

    private HttpRequest.Builder get(String path) {
        return request(path).GET();
    }

    private HttpRequest.Builder multipart(String path, List<Part> parts) throws IOException {
        String boundary = "proofline-bench-" + UUID.randomUUID();
        List<HttpRequest.BodyPublisher> body = new ArrayList<>();
        for (Part p : parts) {
            StringBuilder head = new StringBuilder("--").append(boundary).append("\r\n")
                    .append("Content-Disposition: form-data; name=\"").append(p.name()).append('"');
            if (p.filename() != null) {
                head.append("; filename=\"").append(p.filename()).append("\"\r\n")
                        .append("Content-Type: application/octet-stream");
            }
            head.append("\r\n\r\n");
            body.add(HttpRequest.BodyPublishers.ofString(head.toString()));
            body.add(p.body());
            body.add(HttpRequest.BodyPublishers.ofString("\r\n"));
        }
        body.add(HttpRequest.BodyPublishers.ofString("--" + boundary + "--\r\n"));
        return request(path).header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.concat(body.toArray(HttpRequest.BodyPublisher[]::new)));
    }

    /** Sends, waiting out 429s for as long as the service's {@code Retry-After} says. */
    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
        HttpRequest built = request.build();
        while (true) {
            HttpResponse<String> r = http.send(built, HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 429) {
                return r;
            }
            long seconds = r.headers().firstValueAsLong("Retry-After").orElse(1);
            Thread.sleep(Duration.ofSeconds(Math.max(1, seconds)));
        }
    }

    private static JsonNode expect(String what, HttpResponse<String> r, int... statuses) throws IOException {
        for (int s : statuses) {
            if (r.statusCode() == s) {
                return JSON.readTree(r.body());
            }
        }
        throw new CallFailedException(what, r);
    }

    @Override
    public void close() {
        http.close();
    }
}

package io.proofline.web;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

/** A small HTTP client for the REST API over a real port (JSON and multipart), for tests. */
public final class Api {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String apiKey;

    public Api(int port, String apiKey) {
        this.base = "http://127.0.0.1:" + port;
        this.apiKey = apiKey;
    }

    public record Response(int status, String body, java.net.http.HttpHeaders headers) {
        public JsonNode json() {
            return JSON.readTree(body);
        }
    }

    public Response get(String path) throws Exception {
        return send(request(path).GET());
    }

    public Response delete(String path) throws Exception {
        return send(request(path).DELETE());
    }

    public Response postJson(String path, String json) throws Exception {
        return send(request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    /** Multipart with file parts (name → bytes; a name may repeat with a numeric suffix after '#') and fields. */
    public Response postMultipart(String path, Map<String, byte[]> files, Map<String, String> fields) throws Exception {
        String boundary = "----proofline" + UUID.randomUUID();
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (var f : fields.entrySet()) {
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + f.getKey()
                    + "\"\r\n\r\n" + f.getValue() + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        for (var f : files.entrySet()) {
            String name = f.getKey().contains("#") ? f.getKey().substring(0, f.getKey().indexOf('#')) : f.getKey();
            body.writeBytes(("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name
                    + "\"; filename=\"" + name + ".bin\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                    .getBytes(StandardCharsets.UTF_8));
            body.writeBytes(f.getValue());
            body.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
        return send(request(path).header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray())));
    }

    public Response send(HttpRequest.Builder builder) throws Exception {
        HttpResponse<String> r = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
        return new Response(r.statusCode(), r.body(), r.headers());
    }

    public HttpRequest.Builder request(String path) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(60));
        if (apiKey != null) {
            b.header("X-API-Key", apiKey);
        }
        return b;
    }

    /**
     * Registers a circuit and waits until it is READY: the service answers 201 when the key's check ends within
     * {@code proofline.registration.answer-within}, else 202 with the circuit REGISTERING (a loaded machine makes
     * even a small key take that path), and 200 when the key was registered before. Answers the READY circuit.
     */
    public JsonNode registerCircuit(Map<String, byte[]> files, Map<String, String> fields) throws Exception {
        Response r = postMultipart("/api/v1/circuits", files, fields);
        if (r.status() != 200 && r.status() != 201 && r.status() != 202) {
            throw new AssertionError("registration answered " + r.status() + ": " + r.body());
        }
        String id = r.json().get("id").asString();
        long end = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        JsonNode circuit = r.json();
        while (!circuit.get("state").asString().equals("READY")) {
            if (!circuit.get("state").asString().equals("REGISTERING") || System.nanoTime() > end) {
                throw new AssertionError("circuit " + id + " did not become READY: " + circuit);
            }
            Thread.sleep(100);
            circuit = get("/api/v1/circuits/" + id).json();
        }
        return circuit;
    }

    /** Polls the job until it is DONE, FAILED or CANCELLED. */
    public JsonNode awaitJob(String id, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            JsonNode job = get("/api/v1/jobs/" + id).json();
            String status = job.get("status").asString();
            if (status.equals("DONE") || status.equals("FAILED") || status.equals("CANCELLED")) {
                return job;
            }
            if (System.nanoTime() > end) {
                throw new AssertionError("job " + id + " still " + status + " after " + timeout + ": " + job);
            }
            Thread.sleep(200);
        }
    }
}

package io.proofline.web;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * An event stream ends at {@code proofline.security.stream-timeout} (2 s here) however long its client would listen,
 * and its place under {@code streams-per-key} (1 here) is free again afterwards: a client that never hangs up
 * cannot hold its key's streams, nor a server thread, for good.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=" + EventStreamTimeoutTest.KEY,
        "proofline.security.streams-per-key=1",
        "proofline.security.stream-timeout=2s",
        "proofline.gpu.enabled=false",
        "proofline.console.demo.enabled=false"})
@Tag("slow")
class EventStreamTimeoutTest {

    static final String KEY = "stream-timeout-key";

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) throws IOException {
        String dir = Files.createTempDirectory("proofline-stream-timeout").toString();
        registry.add("proofline.store.data-dir", () -> dir);
    }

    @LocalServerPort
    int port;

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void aStreamEndsAtTheTimeoutAndItsPlaceIsFreeAgain() throws Exception {
        HttpResponse<InputStream> first = open();
        assertThat(first.statusCode()).isEqualTo(200);
        assertThat(open().statusCode()).as("the key's one stream is taken").isEqualTo(429);

        long start = System.nanoTime();
        int snapshots = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> readToTheEnd(first.body()));
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(snapshots).as("snapshots before the end").isPositive();
        assertThat(seconds).as("ended by the server near the 2 s timeout").isBetween(1.0, 15.0);

        HttpResponse<InputStream> again = awaitServed();
        again.body().close();
    }

    private HttpResponse<InputStream> open() throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/v1/pipeline/stream"))
                .header("X-API-Key", KEY).header("Accept", "text/event-stream").GET().build(),
                HttpResponse.BodyHandlers.ofInputStream());
    }

    /** The place is given back as the stream completes; allow the server a moment for it. */
    private HttpResponse<InputStream> awaitServed() throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            HttpResponse<InputStream> r = open();
            if (r.statusCode() == 200 || System.nanoTime() > end) {
                assertThat(r.statusCode()).as("a new stream once the old one timed out").isEqualTo(200);
                return r;
            }
            r.body().close();
            Thread.sleep(100);
        }
    }

    private static int readToTheEnd(InputStream body) throws IOException {
        int snapshots = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("event:snapshot")) {
                    snapshots++;
                }
            }
        }
        return snapshots;
    }
}

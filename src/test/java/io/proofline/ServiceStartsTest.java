package io.proofline;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With nothing configured (no API key, no admin password) the service starts on a real port, reports itself healthy,
 * live and ready (what Kubernetes probes ask), and does not run open: the API answers 401.
 */
@Tag("slow")
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
class ServiceStartsTest {

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) throws Exception {
        registry.add("proofline.store.data-dir", Files.createTempDirectory("proofline-starts")::toString);
    }

    @LocalServerPort
    int port;

    @Test
    void healthLivenessAndReadinessAreUpAndTheApiIsClosed() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (String path : new String[]{"/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness"}) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(path).isEqualTo(200);
            assertThat(response.body()).as(path).contains("\"status\":\"UP\"");
        }
        HttpResponse<String> api = http.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + port + "/api/v1/jobs")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(api.statusCode()).isEqualTo(401);
    }
}

package io.proofline.lab.bench;

import org.junit.jupiter.api.Tag;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.nio.file.Files;

/**
 * The service the bench commands that drive a running one ({@code bench http}, {@code bench soak}) are tested
 * against: one real server on a random port (CPU backend, embedded H2 in a temporary data directory), started once
 * for both tests.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
        "proofline.security.api-keys=" + RunningService.API_KEY,
        "proofline.security.admin-password=admin-pw",
        "proofline.security.requests-per-second=10000",
        "proofline.console.demo.enabled=false",
        "proofline.pipeline.synthesis-workers=1",
        "proofline.memory.budget=1GB"})
@Tag("slow")
abstract class RunningService {

    static final String API_KEY = "bench-key";

    @DynamicPropertySource
    static void dataDir(DynamicPropertyRegistry registry) throws Exception {
        registry.add("proofline.store.data-dir", Files.createTempDirectory("proofline-bench-test")::toString);
    }

    @LocalServerPort
    int port;

    String url() {
        return "http://127.0.0.1:" + port;
    }
}

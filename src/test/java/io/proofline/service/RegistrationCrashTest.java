package io.proofline.service;

import io.proofline.service.circuits.CircuitService;
import io.proofline.web.Api;
import io.proofline.witness.HostileWasm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A registration killed half way leaves nothing a restart keeps: a child service is killed ({@code kill -9}) while
 * it validates an upload (a wasm that loops, under a long load timeout), its staging directory still in
 * {@code data/tmp}; beside it lies a circuit directory without a row, as a crash between rename and commit leaves
 * one. The next process on the same data directory removes both, and the zkey registers as new.
 */
@Tag("slow")
class RegistrationCrashTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @Test
    void whatACrashedRegistrationLeftIsGoneAfterRestart() throws Exception {
        Path data = Files.createTempDirectory("proofline-registration-crash");
        Map<String, String> props = Map.of("proofline.store.data-dir", data.toString(),
                "proofline.witness.load-timeout", "10m", "proofline.gpu.enabled", "false",
                "proofline.console.demo.enabled", "false");
        byte[] zkey = Files.readAllBytes(MUL3.resolve("circuit.zkey"));
        try (ServiceProcess first = ServiceProcess.start("registration-crash-1", props)) {
            Api api = first.api();
            CompletableFuture.runAsync(() -> {
                try {
                    api.postMultipart("/api/v1/circuits", Map.of("zkey", zkey, "wasm", HostileWasm.loopsIn(
                            "getVersion")), Map.of());
                } catch (Exception killed) {
                    // the service dies under it
                }
            });
            awaitStagedWasm(data.resolve("tmp"), Duration.ofSeconds(90));
            first.kill();
        }
        assertThat(entries(data.resolve("tmp"))).as("the crashed registration's staging directory").isNotEmpty();
        Path orphan = Files.createDirectories(data.resolve("circuits").resolve("d".repeat(64)));
        Files.writeString(orphan.resolve(CircuitService.VKEY), "{}");

        try (ServiceProcess second = ServiceProcess.start("registration-crash-2", props)) {
            assertThat(entries(data.resolve("tmp"))).as("data/tmp is swept before the service takes requests")
                    .isEmpty();
            long end = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (Files.exists(orphan) && System.nanoTime() < end) {
                Thread.sleep(200); // removed once the application is ready
            }
            assertThat(orphan).as("a circuit directory without a row").doesNotExist();
            second.api().registerCircuit(Map.of("zkey", zkey), Map.of());
            assertThat(entries(data.resolve("circuits"))).hasSize(1);
        }
    }

    /** Waits until a staging directory under {@code tmp} holds the uploaded wasm (validation is under way). */
    private static void awaitStagedWasm(Path tmp, Duration timeout) throws Exception {
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            for (Path entry : entries(tmp)) {
                if (Files.exists(entry.resolve(CircuitService.WASM))) {
                    return;
                }
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no registration staged its wasm in " + timeout);
    }

    private static List<Path> entries(Path dir) throws Exception {
        try (Stream<Path> list = Files.list(dir)) {
            return list.toList();
        }
    }
}

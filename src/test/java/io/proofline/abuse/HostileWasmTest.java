package io.proofline.abuse;

import io.proofline.web.Api;
import io.proofline.witness.HostileWasm;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Hostile witness calculators uploaded with a real zkey: a module that loops, grows its memory or floods its log when
 * the service first runs it is a 422 on {@code wasm} naming the limit, within the load timeout (2 s here), leaving no
 * circuit behind; then the service still serves.
 */
class HostileWasmTest extends InputAbuseSuite {

    @Test
    void loopingGrowingAndFloodingModulesAreRefusedNamingTheLimit() throws Exception {
        // the families share one service: mul3 registered by another (without a wasm) would make each upload a 409
        // (a registered circuit's wasm is never replaced) before its wasm ran
        for (String id : circuitIds().toList()) {
            assertThat(api.delete("/api/v1/circuits/" + id).status()).isEqualTo(204);
        }
        expectRefused(HostileWasm.loopsIn("getVersion"),
                "loading the witness calculator took longer than the witness load timeout of 2s");
        expectRefused(HostileWasm.growsMemoryIn("getWitnessSize"),
                "the module grew its linear memory past the limit of 16777216 bytes");
        expectRefused(HostileWasm.floodsTheLogIn("getVersion"),
                "the circuit's log and message output passed the limit of 65536 characters");
        expectRefused(HostileWasm.declaresMemory(1024),
                "the module declares 67108864 bytes of linear memory, more than the limit of 16777216 bytes");
        assertThat(circuitIds().toList()).as("no circuit registered by a refused upload").isEmpty();
        assertServiceStillServes();
    }

    private void expectRefused(byte[] wasm, String limitMessage) throws Exception {
        Api.Response r = assertTimeoutPreemptively(QUICK, () -> api.postMultipart("/api/v1/circuits", Map.of(
                "zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey")), "wasm", wasm), Map.of("name", "hostile")));
        assertThat(r.status()).as(r.body()).isEqualTo(422);
        assertThat(r.json().get("field").asString()).isEqualTo("wasm");
        assertThat(r.json().get("detail").asString()).contains(limitMessage);
    }
}

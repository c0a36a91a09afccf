package io.proofline.service.jobs;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/** The timings' device-neutral names, with the earlier ones written beside them and read, for one release. */
class TimingsJsonTest {

    private final JsonMapper json = JsonMapper.builder().build();

    @Test
    void bothNamesAreWrittenAndTheNewOnesReadBack() {
        Timings t = new Timings(1, 2, 3, 4, 5, 6, 21);

        String text = json.writeValueAsString(t);

        assertThat(json.readTree(text).get("deviceWaitMs").asLong()).isEqualTo(3);
        assertThat(json.readTree(text).get("gpuWaitMs").asLong()).isEqualTo(3);
        assertThat(json.readTree(text).get("provingMs").asLong()).isEqualTo(4);
        assertThat(json.readTree(text).get("gpuMs").asLong()).isEqualTo(4);
        assertThat(json.readValue(text, Timings.class)).isEqualTo(t);
    }

    @Test
    void rowsWrittenWithTheEarlierNamesStillRead() {
        Timings t = json.readValue("{\"queueWaitMs\":1,\"synthesisMs\":2,\"gpuWaitMs\":3,\"gpuMs\":4,"
                + "\"finalizeMs\":5,\"verifyMs\":6,\"totalMs\":21}", Timings.class);

        assertThat(t).isEqualTo(new Timings(1, 2, 3, 4, 5, 6, 21));
    }
}

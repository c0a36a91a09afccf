package io.proofline.web;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;

import java.io.ByteArrayInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A JSON job's base64 witness is decoded while the body is read: the heap it takes is about the witness's own size,
 * not several times it (the text in the parser's buffer, then as a string, then decoded).
 */
class JobSubmissionDecodeTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void aLargeWitnessIsDecodedFromTheStreamWithoutItsText() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        byte[] witness = new byte[16 << 20];
        new Random(20261204L).nextBytes(witness);
        byte[] body = ("{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\""
                + Base64.getEncoder().encodeToString(witness) + "\"}]}").getBytes(StandardCharsets.US_ASCII);
        JSON.readValue(smallBody(), JobSubmission.class); // the mapper's caches warmed outside the measurement

        long before = threads.getCurrentThreadAllocatedBytes();
        JobSubmission read = JSON.readValue(new ByteArrayInputStream(body), JobSubmission.class);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(read.partitions().getFirst().witness()).isEqualTo(witness);
        // Decoding into segments and copying them out once is 2x; the text as a string alone would add 2.7x more.
        assertThat(allocated).as("bytes allocated to read a %d-byte witness", witness.length)
                .isLessThan(5L * witness.length / 2);
    }

    @Test
    void aWitnessThatIsNotBase64NamesItsField() {
        assertThatThrownBy(() -> JSON.readValue(
                "{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\"not base64!\"}]}", JobSubmission.class))
                .isInstanceOf(DatabindException.class)
                .satisfies(e -> assertThat(((DatabindException) e).getPath()).extracting(r -> r.getPropertyName())
                        .containsExactly("partitions", null, "witness"));
    }

    private static byte[] smallBody() {
        return ("{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\""
                + Base64.getEncoder().encodeToString(new byte[64]) + "\"}]}").getBytes(StandardCharsets.US_ASCII);
    }
}

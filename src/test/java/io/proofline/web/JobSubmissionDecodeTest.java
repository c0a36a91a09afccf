package io.proofline.web;

import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobStaging;
import io.proofline.service.jobs.JobUpload;
import io.proofline.service.TooLargeException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.web.MockHttpServletRequest;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A job's witness goes from the request into its staged file as it is read, on both paths: a JSON body's base64 is
 * decoded by the parser straight into the file, a multipart part is copied there. The heap the reading thread takes
 * for a 2^20-variable witness (32 MiB) is a small fraction of the witness: it is never held, neither as text nor as
 * bytes. (Before: the JSON path took about 2x the witness, the multipart path a copy from {@code getBytes()}.)
 */
class JobSubmissionDecodeTest {

    /** The job mapper with the default settings' read constraints (max-job-size 256MB). */
    static final tools.jackson.databind.json.JsonMapper JSON = JsonReadLimits.jobs(new BodyLimits(256L << 20,
            2L << 30, BodyLimits.verifyBytes(10_000), java.time.Duration.ofMinutes(2)));

    /** A BN254 witness of 2^20 values: 32 bytes each. */
    static final int WITNESS_BYTES = 32 << 20;

    @TempDir
    Path dir;
    JobStaging staging;
    byte[] witness;
    String sha256;

    @BeforeEach
    void witness() throws Exception {
        staging = JobStaging.in(dir, 64L << 20);
        witness = new byte[WITNESS_BYTES];
        new Random(20261204L).nextBytes(witness);
        sha256 = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(witness));
    }

    @Test
    void aLargeBase64WitnessIsDecodedIntoItsFileWithoutBeingHeld() throws Exception {
        var threads = allocationCounter();
        byte[] body = ("{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\""
                + Base64.getEncoder().encodeToString(witness) + "\"}]}").getBytes(StandardCharsets.US_ASCII);
        readJson(smallJson()); // the mapper's caches warmed outside the measurement

        try (JobUpload upload = staging.open()) {
            long before = threads.getCurrentThreadAllocatedBytes();
            JobService.NewJob job = JobSubmissionReader.json(new ByteArrayInputStream(body), upload, JSON);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            JobService.NewPartition p = job.partitions().getFirst();
            assertThat(p.size()).isEqualTo(WITNESS_BYTES);
            assertThat(p.sha256()).isEqualTo(sha256);
            assertThat(Files.mismatch(p.file(), writeExpected())).isEqualTo(-1L);
            assertThat(allocated).as("bytes allocated to read a %d-byte witness", WITNESS_BYTES)
                    .isLessThan(WITNESS_BYTES / 16);
        }
        assertNothingStaged();
    }

    @Test
    void aLargeInputIsCheckedAndStagedTokenByTokenWithoutATree() throws Exception {
        var threads = allocationCounter();
        // one signal of 4 million numbers, about 32 MB: as a tree it was millions of nodes
        int values = 4_000_000;
        StringBuilder json = new StringBuilder(values * 8 + 128).append("{\"circuitId\":\"c\",\"partitions\":[{\"input\":{\"in\":[");
        for (int i = 0; i < values; i++) {
            json.append(i == 0 ? "" : ",").append(1_000_000 + i);
        }
        byte[] body = json.append("]}}]}").toString().getBytes(StandardCharsets.US_ASCII);
        json.setLength(0);
        readJson(("{\"circuitId\":\"c\",\"partitions\":[{\"input\":{\"in\":[1,2]}}]}")
                .getBytes(StandardCharsets.US_ASCII)); // warmed outside the measurement

        try (JobUpload upload = staging.open()) {
            long before = threads.getCurrentThreadAllocatedBytes();
            JobService.NewJob job = JobSubmissionReader.json(new ByteArrayInputStream(body), upload, JSON);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            JobService.NewPartition p = job.partitions().getFirst();
            assertThat(p.format()).isEqualTo(io.proofline.engine.PartitionInput.Format.INPUT_JSON);
            assertThat(p.size()).as("the flattened file: the same values").isGreaterThan(values * 8L);
            assertThat(allocated).as("bytes allocated to read a %d-byte input", body.length)
                    .isLessThan(body.length / 16);
        }
        assertNothingStaged();
    }

    @Test
    void aLargeMultipartWitnessIsCopiedIntoItsFileWithoutBeingHeld() throws Exception {
        var threads = allocationCounter();
        MockHttpServletRequest request = multipart(witness);
        try (JobUpload warm = staging.open()) {
            JobSubmissionReader.multipart(multipart(new byte[64]), warm);
        }

        try (JobUpload upload = staging.open()) {
            long before = threads.getCurrentThreadAllocatedBytes();
            JobService.NewJob job = JobSubmissionReader.multipart(request, upload);
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;

            JobService.NewPartition p = job.partitions().getFirst();
            assertThat(job.circuitId()).isEqualTo("c");
            assertThat(p.field()).isEqualTo("witness[0]");
            assertThat(p.size()).isEqualTo(WITNESS_BYTES);
            assertThat(p.sha256()).isEqualTo(sha256);
            assertThat(allocated).as("bytes allocated to read a %d-byte witness", WITNESS_BYTES)
                    .isLessThan(WITNESS_BYTES / 16);
        }
        assertNothingStaged();
    }

    @Test
    void aWitnessThatIsNotBase64NamesItsFieldAndLeavesNothing() {
        try (JobUpload upload = staging.open()) {
            assertThatThrownBy(() -> JobSubmissionReader.json(new ByteArrayInputStream(
                    "{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\"AAAA\"},{\"witness\":\"not base64!\"}]}"
                            .getBytes(StandardCharsets.US_ASCII)), upload, JSON))
                    .hasFieldOrPropertyWithValue("field", "partitions[1].witness");
        }
        assertNothingStaged();
    }

    @Test
    void witnessesOverTheJobsLimitTogetherAre413AtTheCrossingPart() {
        JobStaging small = JobStaging.in(dir, 3 << 20);
        String twoMiB = Base64.getEncoder().encodeToString(new byte[2 << 20]);
        try (JobUpload upload = small.open()) {
            assertThatThrownBy(() -> JobSubmissionReader.json(new ByteArrayInputStream(("{\"circuitId\":\"c\","
                    + "\"partitions\":[{\"witness\":\"" + twoMiB + "\"},{\"witness\":\"" + twoMiB + "\"}]}")
                    .getBytes(StandardCharsets.US_ASCII)), upload, JSON))
                    .isInstanceOf(TooLargeException.class)
                    .hasFieldOrPropertyWithValue("field", "partitions[1].witness")
                    .hasMessageContaining("limit of " + (3 << 20) + " bytes (proofline.store.max-job-size)");
            assertThat(upload.partitions()).hasSize(1);
        }
        try (JobUpload upload = small.open()) {
            assertThatThrownBy(() -> JobSubmissionReader.multipart(multipart(new byte[4 << 20]), upload))
                    .isInstanceOf(TooLargeException.class).hasFieldOrPropertyWithValue("field", "witness[0]");
            assertThat(upload.partitions()).as("the crossing part's file is removed at once").isEmpty();
        }
        assertNothingStaged();
    }

    @Test
    void aPartPastThePartitionLimitIsRefusedBeforeItBecomesAFile() {
        StringBuilder json = new StringBuilder("{\"circuitId\":\"c\",\"partitions\":[");
        for (int i = 0; i <= JobService.MAX_PARTITIONS; i++) {
            json.append(i == 0 ? "" : ",").append("{\"witness\":\"AAAA\"}");
        }
        json.append("]}");
        try (JobUpload upload = staging.open()) {
            assertThatThrownBy(() -> JobSubmissionReader.json(new ByteArrayInputStream(
                    json.toString().getBytes(StandardCharsets.US_ASCII)), upload, JSON))
                    .hasFieldOrPropertyWithValue("field", "partitions[" + JobService.MAX_PARTITIONS + "].witness")
                    .hasMessageContaining("at most " + JobService.MAX_PARTITIONS + " partitions");
            assertThat(upload.partitions()).hasSize(JobService.MAX_PARTITIONS);
        }
        assertNothingStaged();
    }

    private JobService.NewJob readJson(byte[] body) throws Exception {
        try (JobUpload upload = staging.open()) {
            return JobSubmissionReader.json(new ByteArrayInputStream(body), upload, JSON);
        }
    }

    private Path writeExpected() throws Exception {
        return Files.write(dir.resolve("expected"), witness);
    }

    private void assertNothingStaged() {
        try (Stream<Path> left = Files.list(dir.resolve("tmp"))) {
            assertThat(left.toList()).as("staged files left behind").isEmpty();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static com.sun.management.ThreadMXBean allocationCounter() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        return threads;
    }

    private static MockHttpServletRequest multipart(byte[] witness) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(witness.length + 512);
        body.writeBytes(("--b\r\nContent-Disposition: form-data; name=\"circuitId\"\r\n\r\nc\r\n--b\r\n"
                + "Content-Disposition: form-data; name=\"witness\"; filename=\"w.wtns\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(witness);
        body.writeBytes("\r\n--b--\r\n".getBytes(StandardCharsets.US_ASCII));
        MockHttpServletRequest request = new MockHttpServletRequest("POST", "/api/v1/jobs");
        request.setContentType("multipart/form-data; boundary=b");
        request.setContent(body.toByteArray());
        return request;
    }

    private static byte[] smallJson() {
        return ("{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\""
                + Base64.getEncoder().encodeToString(new byte[64]) + "\"}]}").getBytes(StandardCharsets.US_ASCII);
    }
}

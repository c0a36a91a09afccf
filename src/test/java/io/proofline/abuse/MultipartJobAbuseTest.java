package io.proofline.abuse;

import io.proofline.web.Api;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Multipart job submissions are streamed part by part into the job's staging area in {@code data/tmp}. Abused, each
 * ends with nothing behind it: a chunked body whose witnesses cross {@code max-job-size} (3MB here) is a 413 naming
 * the limit while it is still being sent; a body that drips in is a 408 at {@code body-read-timeout} (2 s); a body cut
 * off half way (the client goes away) leaves no staged file; none of them leaves a job row, a job input or a
 * reservation, and the service then proves a good multipart job and the suite's good job.
 */
class MultipartJobAbuseTest extends InputAbuseSuite {

    private static final String BOUNDARY = "abuse-multipart";

    @Test
    void witnessesCrossingTheJobLimitWhileStreamingAre413AndLeaveNothing() throws Exception {
        String circuit = registerMul3();
        long jobsBefore = jobCount();
        byte[][] pieces = new byte[200][];
        pieces[0] = RawHttp.chunk(head(circuit));
        // 12.8 MB offered in 64 KiB chunks; the limit is crossed after some 3 MB of them
        Arrays.fill(pieces, 1, pieces.length, RawHttp.chunk(new byte[1 << 16]));
        RawHttp.Answer answer = assertTimeoutPreemptively(QUICK, () -> RawHttp.send(port, "POST /api/v1/jobs HTTP/1.1\r\n"
                + "Host: localhost\r\nX-API-Key: " + KEY + "\r\nContent-Type: multipart/form-data; boundary="
                + BOUNDARY + "\r\nTransfer-Encoding: chunked", pieces, 0));
        assertThat(answer.status()).as(answer.text()).isEqualTo(413);
        assertThat(answer.text()).contains("max-job-size");
        assertThat(answer.piecesSent()).as("refused while the body was still arriving, not read to its end")
                .isLessThan(pieces.length);
        assertNothingLeftOf(jobsBefore);
        assertGoodMultipartJobProves(circuit);
        assertServiceStillServes();
    }

    @Test
    void aMultipartBodyThatDripsInIsA408AndLeavesNothing() throws Exception {
        String circuit = registerMul3();
        long jobsBefore = jobCount();
        byte[][] drips = new byte[100][];
        drips[0] = head(circuit);
        Arrays.fill(drips, 1, drips.length, new byte[64]);
        long start = System.nanoTime();
        RawHttp.Answer slow = assertTimeoutPreemptively(QUICK, () -> RawHttp.send(port, "POST /api/v1/jobs HTTP/1.1\r\n"
                + "Host: localhost\r\nX-API-Key: " + KEY + "\r\nContent-Type: multipart/form-data; boundary="
                + BOUNDARY + "\r\nContent-Length: " + (head(circuit).length + 99 * 64 + 100), drips, 200));
        assertThat(slow.status()).as(slow.text()).isEqualTo(408);
        assertThat(slow.text()).contains("the request body was not received within 2000 ms");
        assertThat((System.nanoTime() - start) / 1_000_000_000L).as("cut off near the 2 s limit").isLessThan(10);
        assertNothingLeftOf(jobsBefore);
        assertServiceStillServes();
    }

    @Test
    void aMultipartBodyCutOffHalfWayLeavesNothing() throws Exception {
        String circuit = registerMul3();
        long jobsBefore = jobCount();
        byte[] head = head(circuit);
        try (Socket socket = new Socket("127.0.0.1", port)) {
            OutputStream out = socket.getOutputStream();
            out.write(("POST /api/v1/jobs HTTP/1.1\r\nHost: localhost\r\nX-API-Key: " + KEY
                    + "\r\nContent-Type: multipart/form-data; boundary=" + BOUNDARY + "\r\nContent-Length: "
                    + (head.length + (2 << 20) + 64) + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(head);
            out.write(new byte[1 << 20]); // half of the witness the length announces
            out.flush();
            awaitTrue(() -> !staged().isEmpty(), "the witness is being staged in data/tmp as it arrives");
        } // the client goes away
        assertNothingLeftOf(jobsBefore);
        assertGoodMultipartJobProves(circuit);
        assertServiceStillServes();
    }

    private String registerMul3() throws Exception {
        return api.registerCircuit(
                Map.of("zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey"))), Map.of("name", "mul3")).get("id").asString();
    }

    private void assertGoodMultipartJobProves(String circuit) throws Exception {
        byte[] witness = Files.readAllBytes(MUL3.resolve("witness.wtns"));
        Api.Response submitted = api.postMultipart("/api/v1/jobs", Map.of("witness#0", witness, "witness#1", witness),
                Map.of("circuitId", circuit, "verify", "true"));
        assertThat(submitted.status()).as(submitted.body()).isEqualTo(202);
        var job = api.awaitJob(submitted.json().get("id").asString(), Duration.ofMinutes(1));
        assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        assertThat(job.get("partitions")).hasSize(2);
    }

    /** No staged file, no new job (row or input), once the server has finished with the request. */
    private void assertNothingLeftOf(long jobsBefore) throws Exception {
        awaitTrue(() -> staged().isEmpty(), "nothing staged in data/tmp");
        assertThat(jobCount()).as("no job created").isEqualTo(jobsBefore);
        assertThat(jobInputs()).as("no job inputs").isEmpty();
    }

    private long jobCount() throws Exception {
        return api.get("/api/v1/jobs").json().get("total").asLong();
    }

    private static byte[] head(String circuit) {
        return ("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"circuitId\"\r\n\r\n" + circuit
                + "\r\n--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"witness\"; filename=\"w.wtns\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    private interface Check {
        boolean holds() throws Exception;
    }

    private static void awaitTrue(Check check, String what) throws Exception {
        long end = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        while (!check.holds()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("within 15 s: " + what);
            }
            Thread.sleep(20);
        }
    }
}

package io.proofline.abuse;

import io.proofline.web.Api;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Job submissions over {@code max-job-size} (3MB here) on every path: a JSON body with a Content-Length over it, a
 * chunked JSON body that grows past it, a multipart job over it (it used to bypass the limit) and a chunked multipart
 * job over it (measured once the container has parsed it to disk): 413 each, no job created; then the service still
 * serves.
 */
class OversizedBodyTest extends InputAbuseSuite {

    @Test
    void everyPathIsBoundedByTheJobSize() throws Exception {
        long jobsBefore = api.get("/api/v1/jobs").json().get("total").asLong();
        String circuit = api.postMultipart("/api/v1/circuits",
                Map.of("zkey", Files.readAllBytes(MUL3.resolve("circuit.zkey"))), Map.of()).json().get("id").asString();
        String huge = Base64.getEncoder().encodeToString(new byte[4 << 20]);

        Api.Response declared = assertTimeoutPreemptively(QUICK, () -> api.postJson("/api/v1/jobs",
                "{\"circuitId\":\"" + circuit + "\",\"partitions\":[{\"witness\":\"" + huge + "\"}]}"));
        assertThat(declared.status()).as(declared.body()).isEqualTo(413);

        byte[] piece = "A".repeat(1 << 16).getBytes(StandardCharsets.US_ASCII); // one base64 string, never closed
        byte[][] pieces = new byte[80][];
        pieces[0] = RawHttp.chunk(("{\"circuitId\":\"" + circuit + "\",\"partitions\":[{\"witness\":\"").getBytes(
                StandardCharsets.US_ASCII));
        Arrays.fill(pieces, 1, pieces.length, RawHttp.chunk(piece));
        RawHttp.Answer chunked = assertTimeoutPreemptively(QUICK, () -> RawHttp.send(port, "POST /api/v1/jobs HTTP/1.1\r\n"
                + "Host: localhost\r\nX-API-Key: " + KEY + "\r\nContent-Type: application/json\r\n"
                + "Transfer-Encoding: chunked", pieces, 0));
        assertThat(chunked.status()).as(chunked.text()).isEqualTo(413);

        Api.Response multipart = assertTimeoutPreemptively(QUICK, () -> api.postMultipart("/api/v1/jobs",
                Map.of("witness#0", new byte[2 << 20], "witness#1", new byte[2 << 20]), Map.of("circuitId", circuit)));
        assertThat(multipart.status()).as(multipart.body()).isEqualTo(413);

        String boundary = "abuse";
        byte[] head = ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"circuitId\"\r\n\r\n" + circuit
                + "\r\n--" + boundary + "\r\nContent-Disposition: form-data; name=\"witness\"; filename=\"w.wtns\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[][] multipartPieces = new byte[60][];
        multipartPieces[0] = RawHttp.chunk(head);
        Arrays.fill(multipartPieces, 1, 58, RawHttp.chunk(new byte[1 << 16])); // 3.6 MB of witness
        multipartPieces[58] = RawHttp.chunk(("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII));
        multipartPieces[59] = "0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
        RawHttp.Answer chunkedMultipart = assertTimeoutPreemptively(QUICK, () -> RawHttp.send(port,
                "POST /api/v1/jobs HTTP/1.1\r\nHost: localhost\r\nX-API-Key: " + KEY
                        + "\r\nContent-Type: multipart/form-data; boundary=" + boundary + "\r\nTransfer-Encoding: chunked",
                multipartPieces, 0));
        assertThat(chunkedMultipart.status()).as(chunkedMultipart.text()).isEqualTo(413);

        assertThat(api.get("/api/v1/jobs").json().get("total").asLong()).as("no job created").isEqualTo(jobsBefore);
        assertServiceStillServes();
    }
}

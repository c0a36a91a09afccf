package io.proofline.deploy;

import io.proofline.snark.R1cs;
import io.proofline.snark.format.R1csReader;
import io.proofline.web.Api;
import io.proofline.witness.HostileWasm;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Registration uploads of the largest kinds against the service as a user runs it ({@link ServedAsUser}: a 2 GB
 * limit, a 512 MiB heap, default settings, {@code proofline.store.max-circuit-size} 2 GB): a 1 GiB {@code .r1cs} with
 * the shape of a real circuit's header, and a 256 MiB {@code .wasm}. Each is streamed from a file on disk (chunked;
 * the test holds neither) and answered — the r1cs is refused from its header (422: it claims more constraints than
 * the zkey's domain holds), the wasm from its size (413: past what one witness-calculator instance may
 * load) — and afterwards the process is the same one, its RSS stayed within the limit, health is UP and a good job
 * proves.
 */
@Tag("slow")
class RegistrationUploadAbuseTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");
    private static final long LIMIT = 2_000_000_000L;

    @Test
    void aGigabyteR1csAndA256MegabyteWasmAreAnsweredAndTheServiceServesOn(@TempDir Path dir) throws Exception {
        Path r1cs = gigabyteR1cs(dir.resolve("huge.r1cs"));
        Path wasm = bigWasm(dir.resolve("huge.wasm"), 256L << 20);
        try (ServedAsUser service = ServedAsUser.start(dir, "2GB")) {
            long pid = service.pid();
            Path zkey = MUL3.resolve("circuit.zkey");

            HttpResponse<String> r = upload(service, Map.of("zkey", zkey, "r1cs", r1cs));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(422);
            JsonNode problem = Api.JSON.readTree(r.body());
            assertThat(problem.get("field").asString()).isEqualTo("r1cs");
            assertThat(problem.get("detail").asString()).contains("constraints are more than the");

            r = upload(service, Map.of("zkey", zkey, "wasm", wasm));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
            assertThat(Api.JSON.readTree(r.body()).get("detail").asString()).contains("a witness calculator may load");

            Api api = service.api();
            assertThat(api.get("/api/v1/circuits").json().size()).as("no circuit left by either")
                    .isZero();
            assertThat(service.pid()).isEqualTo(pid);
            assertThat(service.isAlive()).isTrue();
            assertThat(service.rssPeakBytes()).as("RSS high-water mark").isLessThan(LIMIT);
            assertThat(api.get("/actuator/health").json().get("status").asString()).isEqualTo("UP");

            String circuit = api.registerCircuit(Map.of("zkey", Files.readAllBytes(zkey),
                    "r1cs", Files.readAllBytes(MUL3.resolve("circuit.r1cs"))), Map.of("name", "mul3")).get("id")
                    .asString();
            String witness = Base64.getEncoder().encodeToString(Files.readAllBytes(MUL3.resolve("witness.wtns")));
            Api.Response job = api.postJson("/api/v1/jobs", "{\"circuitId\":\"" + circuit
                    + "\",\"partitions\":[{\"witness\":\"" + witness + "\"}]}");
            assertThat(job.status()).as(job.body()).isEqualTo(202);
            JsonNode done = api.awaitJob(job.json().get("id").asString(), Duration.ofMinutes(2));
            assertThat(done.get("status").asString()).as(done.toString()).isEqualTo("DONE");
        }
    }

    /**
     * 1 GiB, well formed: mul3's header (same curve, wires and public signals, so it passes the comparison with the
     * zkey) claiming 89 million constraints, and a constraints section of that many empty ones (zeros: a sparse
     * file, written without holding it anywhere). A parse onto the heap would size its arrays by that count.
     */
    private static Path gigabyteR1cs(Path file) throws Exception {
        R1cs real = R1csReader.read(MUL3.resolve("circuit.r1cs"));
        ByteBuffer header = ByteBuffer.allocate(4 + 4 + 4 + (4 + 8 + 64) + (4 + 8)).order(ByteOrder.LITTLE_ENDIAN);
        header.put("r1cs".getBytes(StandardCharsets.US_ASCII)).putInt(1).putInt(2);
        header.putInt(1).putLong(64).putInt(32);
        byte[] prime = real.curve().fr().modulus().toByteArray();
        byte[] le = new byte[32];
        for (int i = 0; i < 32 && i < prime.length; i++) {
            le[i] = prime[prime.length - 1 - i];
        }
        long total = 1L << 30;
        long section = total - header.capacity();
        // a well-formed file: as many constraints as the section holds, each three empty linear combinations
        int constraints = Math.toIntExact(section / 12);
        header.put(le).putInt(real.nWires()).putInt(real.nPubOut()).putInt(real.nPubIn()).putInt(real.nPrvIn())
                .putLong(real.nLabels()).putInt(constraints);
        header.putInt(2).putLong(12L * constraints);
        total = header.capacity() + 12L * constraints;
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.write(header.array());
            out.setLength(total);
        }
        return file;
    }

    /** A valid small module followed by a custom section of zeros up to {@code size} bytes. */
    private static Path bigWasm(Path file, long size) throws Exception {
        byte[] module = HostileWasm.harmless();
        ByteArrayOutputStream custom = new ByteArrayOutputStream();
        custom.write(0);
        long payload = size - module.length - 1 - 5;
        for (int i = 0; i < 5; i++) { // LEB128 padded to 5 bytes
            custom.write((int) ((payload >>> (7 * i)) & 0x7f) | (i < 4 ? 0x80 : 0));
        }
        custom.write(3);
        custom.writeBytes("pad".getBytes(StandardCharsets.US_ASCII));
        try (RandomAccessFile out = new RandomAccessFile(file.toFile(), "rw")) {
            out.write(module);
            out.write(custom.toByteArray());
            out.setLength(size);
        }
        return file;
    }

    /** A multipart POST to {@code /api/v1/circuits} streamed from the files (chunked), as curl -F would send it. */
    private static HttpResponse<String> upload(ServedAsUser service, Map<String, Path> parts) throws Exception {
        String boundary = "----proofline" + UUID.randomUUID();
        List<InputStream> streams = new java.util.ArrayList<>();
        for (Map.Entry<String, Path> part : parts.entrySet()) {
            streams.add(new ByteArrayInputStream(("--" + boundary + "\r\nContent-Disposition: form-data; name=\""
                    + part.getKey() + "\"; filename=\"" + part.getValue().getFileName()
                    + "\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.UTF_8)));
            streams.add(Files.newInputStream(part.getValue()));
            streams.add(new ByteArrayInputStream("\r\n".getBytes(StandardCharsets.UTF_8)));
        }
        streams.add(new ByteArrayInputStream(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8)));
        HttpRequest request = service.api().request("/api/v1/circuits").timeout(Duration.ofMinutes(10))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofInputStream(
                        () -> new SequenceInputStream(Collections.enumeration(streams))))
                .build();
        return HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    }
}

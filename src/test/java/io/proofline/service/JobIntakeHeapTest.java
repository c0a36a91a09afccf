package io.proofline.service;

import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.CircuitStore;
import io.proofline.service.jobs.JobStore;
import io.proofline.service.jobs.PartitionRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.boot.webmvc.test.autoconfigure.MockMvcPrint;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;

/**
 * The whole intake path of a job, multipart or JSON (base64), on the request's thread — security and size filters, the controller's
 * streaming reader, staging, the job service's checks (the {@code .wtns} header and every value read from the mapped
 * file), the move into the job's directory and the row — takes a small fraction of a 2^20-variable witness (32 MiB)
 * on the heap: the witness is never copied onto it. The circuit is a row of that shape with a stand-in key file, so
 * the job is accepted and then fails at synthesis (or is cancelled first); only its intake is measured.
 */
@SpringBootTest(properties = {
        "proofline.security.api-keys=" + JobIntakeHeapTest.KEY,
        "proofline.security.requests-per-second=100000",
        "proofline.store.max-job-size=64MB",
        "proofline.memory.budget=2GB",
        "proofline.gpu.enabled=false",
        "proofline.console.demo.enabled=false"})
// MockMvc's printing of failed requests copies every request body into strings: not the service's heap
@AutoConfigureMockMvc(print = MockMvcPrint.NONE, printOnlyOnFailure = false)
@Tag("slow")
class JobIntakeHeapTest {

    static final String KEY = "heap-test-key";
    static final int VARIABLES = 1 << 20;
    /** Enough values that the checks of the first witness are compiled, as in a service that has run a while. */
    static final int WARM_UP = 1 << 17;
    static final BigInteger BN254_R = new BigInteger(
            "21888242871839275222246405745257275088548364400416034343698204186575808495617");
    private static Path dataDir;

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) throws IOException {
        dataDir = Files.createTempDirectory("proofline-intake-heap");
        registry.add("proofline.store.data-dir", dataDir::toString);
    }

    @Autowired
    MockMvc mvc;
    @Autowired
    CircuitStore circuits;
    @Autowired
    DataDirectory data;
    @Autowired
    JobStore jobs;

    @Test
    void aLargeMultipartWitnessIsNeverCopiedOntoTheRequestThreadsHeap() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        String circuitId = circuitOf(VARIABLES, "large");
        String small = circuitOf(WARM_UP, "small");
        byte[] witness = wtns(VARIABLES);
        byte[] body = multipart(circuitId, witness);
        submit(multipart(small, wtns(WARM_UP)), 202); // every cache and lazy bean on the path warmed outside the measurement

        long before = threads.getCurrentThreadAllocatedBytes();
        MvcResult accepted = submit(body, 202);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(allocated).as("bytes allocated on the request thread for a %d-byte witness", witness.length)
                .isLessThan(witness.length / 16);
        String jobId = accepted.getResponse().getHeader("Location").replaceAll(".*/", "");
        assertThat(jobs.partitions(jobId)).singleElement().extracting(PartitionRecord::bytes)
                .isEqualTo((long) witness.length);
        mvc.perform(delete("/api/v1/jobs/" + jobId).header("X-API-Key", KEY));
        try (Stream<Path> left = Files.list(data.tmp())) {
            assertThat(left.toList()).as("nothing left staged").isEmpty();
        }
    }

    @Test
    void aLargeBase64WitnessIsNeverCopiedOntoTheRequestThreadsHeap() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled(),
                "this JVM does not count allocated bytes per thread");
        String circuitId = circuitOf(VARIABLES, "large-json");
        String small = circuitOf(WARM_UP, "small-json");
        byte[] witness = wtns(VARIABLES);
        byte[] body = json(circuitId, witness);
        submitJson(json(small, wtns(WARM_UP)));

        long before = threads.getCurrentThreadAllocatedBytes();
        MvcResult accepted = submitJson(body);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertThat(allocated).as("bytes allocated on the request thread for a %d-byte witness", witness.length)
                .isLessThan(witness.length / 16);
        String jobId = accepted.getResponse().getHeader("Location").replaceAll(".*/", "");
        assertThat(jobs.partitions(jobId)).singleElement().extracting(PartitionRecord::bytes)
                .isEqualTo((long) witness.length);
        mvc.perform(delete("/api/v1/jobs/" + jobId).header("X-API-Key", KEY));
    }

    private MvcResult submitJson(byte[] body) throws Exception {
        MvcResult r = mvc.perform(post("/api/v1/jobs").contentType("application/json").content(body)
                .header("X-API-Key", KEY)).andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(202);
        return r;
    }

    private static byte[] json(String circuitId, byte[] witness) {
        return ("{\"circuitId\":\"" + circuitId + "\",\"partitions\":[{\"witness\":\""
                + java.util.Base64.getEncoder().encodeToString(witness) + "\"}]}").getBytes(StandardCharsets.US_ASCII);
    }

    private MvcResult submit(byte[] body, int status) throws Exception {
        MvcResult r = mvc.perform(post("/api/v1/jobs").contentType("multipart/form-data; boundary=b")
                .content(body).header("X-API-Key", KEY)).andReturn();
        assertThat(r.getResponse().getStatus()).as(r.getResponse().getContentAsString()).isEqualTo(status);
        return r;
    }

    /** A registered circuit row of {@code variables} variables, visible to every key, with a stand-in key file. */
    private String circuitOf(int variables, String name) throws Exception {
        String id = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                .digest(name.getBytes(StandardCharsets.UTF_8)));
        Files.write(Files.createDirectories(data.circuit(id)).resolve(CircuitService.ZKEY), new byte[1 << 10]);
        circuits.insert(new CircuitInfo(id, name, "bn128", variables, variables, 1, variables, 1 << 10, false, false,
                Instant.now()));
        circuits.grant(id, Tenant.EVERY_KEY);
        return id;
    }

    /** A .wtns of {@code n} zero values over BN254. */
    static byte[] wtns(int n) {
        ByteBuffer b = ByteBuffer.allocate(12 + 12 + 40 + 12 + n * 32).order(ByteOrder.LITTLE_ENDIAN);
        b.put("wtns".getBytes(StandardCharsets.US_ASCII)).putInt(2).putInt(2);
        b.putInt(1).putLong(40).putInt(32);
        byte[] r = BN254_R.toByteArray();
        for (int i = 0; i < 32; i++) {
            b.put(i < r.length ? r[r.length - 1 - i] : 0);
        }
        b.putInt(n);
        b.putInt(2).putLong((long) n * 32);
        return b.array();
    }

    private static byte[] multipart(String circuitId, byte[] witness) {
        ByteArrayOutputStream body = new ByteArrayOutputStream(witness.length + 512);
        body.writeBytes(("--b\r\nContent-Disposition: form-data; name=\"circuitId\"\r\n\r\n" + circuitId + "\r\n--b\r\n"
                + "Content-Disposition: form-data; name=\"witness\"; filename=\"w.wtns\"\r\n"
                + "Content-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        body.writeBytes(witness);
        body.writeBytes("\r\n--b--\r\n".getBytes(StandardCharsets.US_ASCII));
        return body.toByteArray();
    }
}

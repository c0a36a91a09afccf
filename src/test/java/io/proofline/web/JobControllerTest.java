package io.proofline.web;

import io.proofline.web.multipart.MultipartConfiguration;
import io.proofline.web.security.ApiKeyFilter;
import io.proofline.engine.JobState;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.Priority;
import io.proofline.service.BusyException;
import io.proofline.service.ConflictException;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.jobs.JobPage;
import io.proofline.service.jobs.JobRecord;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobWaits;
import io.proofline.service.NotFoundException;
import io.proofline.service.jobs.StoredProof;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.webmvc.test.autoconfigure.WebMvcTest;
import org.springframework.http.MediaType;
import io.proofline.service.jobs.JobStaging;
import org.junit.jupiter.api.AfterEach;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.util.unit.DataSize;
import org.springframework.test.context.bean.override.mockito.MockitoBean;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.MvcResult;
import org.springframework.test.web.servlet.ResultActions;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.hamcrest.Matchers.endsWith;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.asyncDispatch;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.delete;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.request;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

/** {@code /api/v1/jobs}: what a submission becomes, every malformed field named, status codes, the API key. */
@WebMvcTest(JobController.class)
@ApiSlice
@Import({MultipartConfiguration.class, JobControllerTest.Staging.class})
class JobControllerTest {

    /** The real staging, in a directory of its own, bounded like the slice's bodies. */
    @TestConfiguration(proxyBeanMethods = false)
    static class Staging {
        static final Path DATA = tempDirectory();

        @Bean
        JobStaging jobStaging() {
            return JobStaging.in(DATA, DataSize.parse(ApiSlice.MAX_BODY).toBytes());
        }

        private static Path tempDirectory() {
            try {
                return Files.createTempDirectory("proofline-job-controller");
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    static final String JOB_ID = "0b7e1f0c-3c2a-4a64-9d55-5d1f1c3a2b10";
    static final String CIRCUIT = "ab".repeat(32);
    static final JobRecord QUEUED = new JobRecord(JOB_ID, CIRCUIT, "r-1", JobState.QUEUED, Priority.HIGH, null, 2,
            null, 0, false, null, null, Instant.parse("2026-01-01T00:00:00Z"), null, null, null);
    static final byte[] WITNESS = "wtns-bytes".getBytes(StandardCharsets.US_ASCII);

    @Autowired
    MockMvc mvc;
    @MockitoBean
    JobService jobs;
    @MockitoBean
    JobWaits waits;

    /** What each submission's staged files held when the service got them (they are gone after the request). */
    final Map<String, byte[]> staged = new LinkedHashMap<>();

    @AfterEach
    void nothingIsLeftStaged() throws Exception {
        try (Stream<Path> left = Files.list(Staging.DATA.resolve("tmp"))) {
            assertThat(left.toList()).as("staged uploads left behind").isEmpty();
        }
    }

    private void answer(JobService.Submitted... answers) {
        var queue = new java.util.ArrayDeque<>(List.of(answers));
        when(jobs.submit(eq(ApiSlice.TENANT), any())).thenAnswer(call -> {
            for (JobService.NewPartition p : call.<JobService.NewJob>getArgument(1).partitions()) {
                staged.put(p.field(), Files.readAllBytes(p.file()));
            }
            return queue.size() > 1 ? queue.poll() : queue.peek();
        });
    }

    @Test
    void aJsonSubmissionIs202WithItsLocationAndARepeatedRequestId200() throws Exception {
        answer(new JobService.Submitted(QUEUED, true), new JobService.Submitted(QUEUED, false));
        String body = """
                {"circuitId":"%s","priority":"high","requestId":"r-1","verify":true,
                 "partitions":[{"witness":"%s"},{"input":{"a":"3","b":["1","2"]}}]}"""
                .formatted(CIRCUIT, Base64.getEncoder().encodeToString(WITNESS));

        submit(body).andExpect(status().isAccepted())
                .andExpect(header().string("Location", endsWith("/api/v1/jobs/" + JOB_ID)))
                .andExpect(jsonPath("$.id").value(JOB_ID))
                .andExpect(jsonPath("$.status").value("QUEUED"));
        submit(body).andExpect(status().isOk());

        ArgumentCaptor<JobService.NewJob> job = ArgumentCaptor.forClass(JobService.NewJob.class);
        verify(jobs, org.mockito.Mockito.times(2)).submit(eq(ApiSlice.TENANT), job.capture());
        JobService.NewJob first = job.getAllValues().getFirst();
        assertThat(first.circuitId()).isEqualTo(CIRCUIT);
        assertThat(first.priority()).isEqualTo(Priority.HIGH);
        assertThat(first.requestId()).isEqualTo("r-1");
        assertThat(first.verify()).isTrue();
        assertThat(first.partitions()).hasSize(2);
        JobService.NewPartition witness = first.partitions().get(0);
        assertThat(witness.format()).isEqualTo(PartitionInput.Format.WTNS);
        assertThat(staged.get("partitions[0].witness")).isEqualTo(WITNESS);
        assertThat(witness.size()).isEqualTo(WITNESS.length);
        assertThat(witness.sha256()).isEqualTo(java.util.HexFormat.of().formatHex(
                java.security.MessageDigest.getInstance("SHA-256").digest(WITNESS)));
        assertThat(witness.field()).isEqualTo("partitions[0].witness");
        JobService.NewPartition input = first.partitions().get(1);
        assertThat(input.format()).isEqualTo(PartitionInput.Format.INPUT_JSON);
        assertThat(new String(staged.get("partitions[1].input"), StandardCharsets.UTF_8))
                .as("flattened as it was read: one array of values per signal")
                .isEqualTo("{\"a\":[\"3\"],\"b\":[\"1\",\"2\"]}");
        assertThat(input.field()).isEqualTo("partitions[1].input");
    }

    @Test
    void eachMalformedPartOfASubmissionIsA400NamingItsField() throws Exception {
        String w = Base64.getEncoder().encodeToString(WITNESS);
        expectField(submit("{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\"" + w + "\",\"input\":{}}]}"),
                "partitions[0]");
        expectField(submit("{\"circuitId\":\"c\",\"partitions\":[{}]}"), "partitions[0]");
        expectField(submit("{\"circuitId\":\"c\",\"partitions\":[null]}"), "partitions[0]");
        expectField(submit("{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\"" + w + "\"},{\"witness\":\"A\"}]}"),
                "partitions[1].witness");
        expectField(submit("{\"circuitId\":\"c\",\"partitions\":[{\"input\":[1,2]}]}"), "partitions[0].input");
        expectField(submit("{\"circuitId\":\"c\",\"priority\":\"urgent\",\"partitions\":[{\"witness\":\"" + w + "\"}]}"),
                "priority");
        expectField(submit("{\"circuitId\":\"c\",\"partitions\":\"all of them\"}"), "partitions");
        expectField(submit("{\"circuitId\":"), "body");
        expectField(submit("null"), "body");
        verifyNoInteractions(jobs);
    }

    @Test
    void aBodyOverTheLimitIs413() throws Exception {
        String huge = "{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\"" + "A".repeat(70 * 1024) + "\"}]}";
        submit(huge).andExpect(status().isContentTooLarge())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.field").value("body"));
        verifyNoInteractions(jobs);
    }

    @Test
    void theServicesRefusalsKeepTheirStatusFieldAndRetryAfter() throws Exception {
        String body = "{\"circuitId\":\"c\",\"partitions\":[{\"witness\":\"AAAA\"}]}";
        when(jobs.submit(eq(ApiSlice.TENANT), any()))
                .thenThrow(InvalidFieldException.unprocessable("partitions[0].witness", "3 values, the circuit has 5"))
                .thenThrow(new NotFoundException("circuitId", "no circuit c"))
                .thenThrow(new BusyException("the queue is full", Duration.ofSeconds(7), false))
                .thenThrow(new BusyException("draining", Duration.ofMillis(10), true));

        submit(body).andExpect(status().isUnprocessableContent())
                .andExpect(jsonPath("$.field").value("partitions[0].witness"));
        submit(body).andExpect(status().isNotFound()).andExpect(jsonPath("$.field").value("circuitId"));
        submit(body).andExpect(status().isTooManyRequests()).andExpect(header().string("Retry-After", "7"));
        submit(body).andExpect(status().isServiceUnavailable()).andExpect(header().string("Retry-After", "1"));
    }

    @Test
    void aMultipartSubmissionTakesOneWitnessFilePerPartition() throws Exception {
        answer(new JobService.Submitted(QUEUED, true));
        multipart(List.of(field("circuitId", CIRCUIT), file("witness", WITNESS), field("priority", "LOW"),
                file("witness", new byte[]{9}), file("signature", new byte[]{1, 2}), field("verify", "true")))
                .andExpect(status().isAccepted());
        ArgumentCaptor<JobService.NewJob> job = ArgumentCaptor.forClass(JobService.NewJob.class);
        verify(jobs).submit(eq(ApiSlice.TENANT), job.capture());
        assertThat(job.getValue().circuitId()).isEqualTo(CIRCUIT);
        assertThat(job.getValue().priority()).isEqualTo(Priority.LOW);
        assertThat(job.getValue().verify()).isTrue();
        assertThat(job.getValue().partitions()).extracting(JobService.NewPartition::field)
                .containsExactly("witness[0]", "witness[1]");
        assertThat(staged.get("witness[0]")).isEqualTo(WITNESS);
        assertThat(staged.get("witness[1]")).containsExactly(9);
    }

    @Test
    void eachMalformedPartOfAMultipartSubmissionIsA400NamingIt() throws Exception {
        expectField(multipart(List.<byte[][]>of(file("witness", WITNESS))), "circuitId");
        expectField(multipart(List.<byte[][]>of(field("circuitId", CIRCUIT))), "witness");
        expectField(multipart(List.of(field("circuitId", CIRCUIT), file("witness", WITNESS),
                field("priority", "urgent"))), "priority");
        expectField(multipart(List.of(field("circuitId", CIRCUIT), file("witness", WITNESS),
                field("verify", "perhaps"))), "verify");
        expectField(multipart(List.of(field("circuitId", "c".repeat(2000)), file("witness", WITNESS))), "circuitId");
        expectField(mvc.perform(post("/api/v1/jobs").contentType("multipart/form-data; boundary=b")
                .content("--b\r\nContent-Disposition: form-data; name=\"witness\"\r\n\r\nno closing boundary")
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY)), "body");
        verifyNoInteractions(jobs);
    }

    @Test
    void aMultipartBodyOverTheLimitIs413() throws Exception {
        multipart(List.of(field("circuitId", CIRCUIT), file("witness", new byte[40 << 10]),
                file("witness", new byte[40 << 10])))
                .andExpect(status().isContentTooLarge())
                .andExpect(jsonPath("$.detail", org.hamcrest.Matchers.containsString("max-job-size")));
        verifyNoInteractions(jobs);
    }

    /** A multipart/form-data body of {@code parts} (each a header block and content), as a client writes it. */
    private ResultActions multipart(List<byte[][]> parts) throws Exception {
        var body = new java.io.ByteArrayOutputStream();
        for (byte[][] part : parts) {
            body.writeBytes(("--b0undary\r\n").getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(part[0]);
            body.writeBytes(part[1]);
            body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        body.writeBytes("--b0undary--\r\n".getBytes(StandardCharsets.US_ASCII));
        return mvc.perform(post("/api/v1/jobs").contentType("multipart/form-data; boundary=b0undary")
                .content(body.toByteArray()).header(ApiKeyFilter.HEADER, ApiSlice.KEY));
    }

    private static byte[][] field(String name, String value) {
        return new byte[][]{("Content-Disposition: form-data; name=\"" + name + "\"\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII), value.getBytes(StandardCharsets.UTF_8)};
    }

    private static byte[][] file(String name, byte[] content) {
        return new byte[][]{("Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + name
                + ".wtns\"\r\nContent-Type: application/octet-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII),
                content};
    }

    @Test
    void listingFiltersByAKnownStatusAndPages() throws Exception {
        when(jobs.list(ApiSlice.TENANT, Optional.of(JobState.DONE), 2, 10)).thenReturn(new JobPage(List.of(QUEUED), 2, 10, 21));
        mvc.perform(get("/api/v1/jobs").param("status", "done").param("page", "2").param("size", "10")
                        .header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.jobs[0].id").value(JOB_ID))
                .andExpect(jsonPath("$.total").value(21));
        expectField(mvc.perform(get("/api/v1/jobs").param("status", "finished")
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY)), "status");
        expectField(mvc.perform(get("/api/v1/jobs").param("page", "first")
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY)), "page");
    }

    @Test
    void aJobItsProofsAndItsCancellation() throws Exception {
        when(jobs.get(ApiSlice.TENANT, JOB_ID)).thenReturn(new JobService.JobView(QUEUED, List.of()));
        when(jobs.get(ApiSlice.TENANT, "nope")).thenThrow(new NotFoundException("id", "no job nope"));
        doAnswer(call -> {
            call.<Runnable>getArgument(2).run();
            Consumer<StoredProof> each = call.getArgument(3);
            each.accept(new StoredProof(0, "{\"protocol\":\"groth16\"}", "[\"33\"]"));
            each.accept(new StoredProof(1, "{\"protocol\":\"groth16\",\n \"curve\":\"bn128\"}", "[\"34\",\"35\"]"));
            return null;
        }).when(jobs).forEachProof(eq(ApiSlice.TENANT), eq(JOB_ID), any(), any());
        doThrow(new ConflictException("id", "the job is RUNNING")).when(jobs)
                .forEachProof(eq(ApiSlice.TENANT), eq("running"), any(), any());
        when(jobs.cancel(ApiSlice.TENANT, JOB_ID)).thenReturn(new JobService.JobView(QUEUED, List.of()));

        mvc.perform(get("/api/v1/jobs/" + JOB_ID).header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.priority").value("HIGH"))
                .andExpect(jsonPath("$.timings.totalMs").value(0));
        mvc.perform(get("/api/v1/jobs/nope").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isNotFound());
        mvc.perform(get("/api/v1/jobs/" + JOB_ID + "/proof").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.proofs[0].proof.protocol").value("groth16"))
                .andExpect(jsonPath("$.proofs[0].publicSignals[0]").value("33"))
                .andExpect(jsonPath("$.proofs[1].proof.curve").value("bn128"))
                .andExpect(jsonPath("$.proofs[1].publicSignals[1]").value("35"));
        mvc.perform(get("/api/v1/jobs/running/proof").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isConflict());
        mvc.perform(delete("/api/v1/jobs/" + JOB_ID).header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isAccepted())
                .andExpect(jsonPath("$.id").value(JOB_ID));
    }

    @Test
    void aWaitAnswersWhenTheJobEndsOrAtOnceForAnEndedJob() throws Exception {
        JobRecord done = new JobRecord(JOB_ID, CIRCUIT, "r-1", JobState.DONE, Priority.HIGH, null, 2, null, 1, false,
                null, null, QUEUED.createdAt(), QUEUED.createdAt(), QUEUED.createdAt(), null);
        CompletableFuture<Void> ended = new CompletableFuture<>();
        when(jobs.get(ApiSlice.TENANT, JOB_ID)).thenReturn(new JobService.JobView(QUEUED, List.of()))
                .thenReturn(new JobService.JobView(done, List.of()));
        when(waits.await(ApiSlice.TENANT.principal(), JOB_ID, Duration.ofSeconds(20))).thenReturn(ended);

        MvcResult parked = mvc.perform(get("/api/v1/jobs/" + JOB_ID).param("waitSeconds", "20")
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY)).andExpect(request().asyncStarted()).andReturn();
        assertThatThrownBy(() -> parked.getAsyncResult(100)).as("parked until the job ends")
                .isInstanceOf(IllegalStateException.class);
        ended.complete(null);
        mvc.perform(asyncDispatch(parked)).andExpect(status().isOk()).andExpect(jsonPath("$.status").value("DONE"));

        MvcResult atOnce = mvc.perform(get("/api/v1/jobs/" + JOB_ID).param("waitSeconds", "20")
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY)).andReturn();
        mvc.perform(asyncDispatch(atOnce)).andExpect(status().isOk()).andExpect(jsonPath("$.status").value("DONE"));
        verify(waits, org.mockito.Mockito.times(1)).await(any(), any(), any());
    }

    @Test
    void aWaitOutOfRangeIs400AndAnotherKeysJob404() throws Exception {
        when(jobs.get(ApiSlice.TENANT, "nope")).thenThrow(new NotFoundException("id", "no job nope"));

        expectField(mvc.perform(get("/api/v1/jobs/" + JOB_ID).param("waitSeconds", "61")
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY)), "waitSeconds");
        expectField(mvc.perform(get("/api/v1/jobs/" + JOB_ID).param("waitSeconds", "-1")
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY)), "waitSeconds");
        mvc.perform(get("/api/v1/jobs/nope").param("waitSeconds", "5").header(ApiKeyFilter.HEADER, ApiSlice.KEY))
                .andExpect(status().isNotFound());
        verifyNoInteractions(waits);
    }

    @Test
    void withoutAValidApiKeyNothingReachesTheService() throws Exception {
        mvc.perform(post("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).content("{}"))
                .andExpect(status().isUnauthorized())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.field").value(ApiKeyFilter.HEADER));
        mvc.perform(get("/api/v1/jobs").header(ApiKeyFilter.HEADER, ApiSlice.KEY + "x"))
                .andExpect(status().isUnauthorized());
        mvc.perform(delete("/api/v1/jobs/" + JOB_ID)).andExpect(status().isUnauthorized());
        verifyNoInteractions(jobs);
    }

    private ResultActions submit(String json) throws Exception {
        return mvc.perform(post("/api/v1/jobs").contentType(MediaType.APPLICATION_JSON).content(json)
                .header(ApiKeyFilter.HEADER, ApiSlice.KEY));
    }

    static void expectField(ResultActions result, String field) throws Exception {
        result.andExpect(status().isBadRequest())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.field").value(field));
    }
}

package io.proofline.web;

import io.proofline.web.multipart.MultipartJobSubmission;
import io.proofline.engine.JobState;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobStaging;
import io.proofline.service.jobs.JobUpload;
import io.proofline.service.jobs.JobWaits;
import io.proofline.service.Tenant;
import io.proofline.service.config.StoreProperties;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.support.ServletUriComponentsBuilder;
import tools.jackson.core.JsonGenerator;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

@RestController
@RequestMapping("/api/v1/jobs")
@Tag(name = "jobs", description = "submit proof jobs, follow them, fetch proofs, cancel")
class JobController {

    private static final JsonMapper JSON = JsonMapper.builder().build();
    /** The longest {@code waitSeconds} a client may ask for: longer waits are one more request away. */
    static final int MAX_WAIT_SECONDS = 60;
    /** The async request's own timeout beyond the wait, so that the wait, not the container, ends it. */
    private static final Duration WAIT_GRACE = Duration.ofSeconds(5);
    /** Reads the job once its wait ends (off the thread that ended the wait: a job runner, the sweeper, a timer). */
    private static final ExecutorService ANSWERS = Executors.newVirtualThreadPerTaskExecutor();

    private final JobService jobs;
    private final JobStaging staging;
    private final JobWaits waits;
    /** Reads job submissions within the job's read constraints. */
    private final JsonMapper submissions;

    JobController(JobService jobs, JobStaging staging, JobWaits waits, StoreProperties store) {
        this.jobs = jobs;
        this.staging = staging;
        this.waits = waits;
        this.submissions = JsonReadLimits.jobs(BodyLimits.of(store));
    }

    @PostMapping(consumes = MediaType.APPLICATION_JSON_VALUE)
    @Operation(summary = "Submit a job (JSON)", description = "partitions: [{witness: <base64 .wtns>} | {input: {...}}]. "
            + "202 with Location; a repeated requestId answers the existing job with 200.",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.APPLICATION_JSON_VALUE, schema = @Schema(implementation = JobSubmission.class))))
    ResponseEntity<JobResponse> submit(Tenant tenant, HttpServletRequest request) throws IOException {
        try (JobUpload upload = staging.open()) {
            return accepted(jobs.submit(tenant, JobSubmissionReader.json(request.getInputStream(), upload, submissions)));
        }
    }

    @PostMapping(consumes = MediaType.MULTIPART_FORM_DATA_VALUE)
    @Operation(summary = "Submit a job (multipart)", description = "circuitId, one 'witness' file (.wtns) per "
            + "partition, optional priority, requestId, verify; each witness is streamed to disk as it arrives",
            requestBody = @io.swagger.v3.oas.annotations.parameters.RequestBody(required = true, content = @Content(
                    mediaType = MediaType.MULTIPART_FORM_DATA_VALUE,
                    schema = @Schema(implementation = MultipartJobSubmission.class))))
    ResponseEntity<JobResponse> submitMultipart(Tenant tenant, HttpServletRequest request) throws IOException {
        try (JobUpload upload = staging.open()) {
            return accepted(jobs.submit(tenant, JobSubmissionReader.multipart(request, upload)));
        }
    }

    @GetMapping
    @Operation(summary = "List jobs, newest first", description = "filter by status; paged (page from 0, size up to 500)")
    JobPageResponse list(Tenant tenant, @RequestParam(value = "status", required = false) String status,
                         @RequestParam(value = "page", defaultValue = "0") int page,
                         @RequestParam(value = "size", defaultValue = "50") int size) {
        Optional<JobState> state = Optional.ofNullable(status).map(s -> enumValue(JobState.class, s, "status"));
        var result = jobs.list(tenant, state, page, size);
        return new JobPageResponse(result.jobs().stream().map(JobResponse::summary).toList(), result.page(),
                result.size(), result.total());
    }

    @GetMapping("/{id}")
    @Operation(summary = "A job with its partitions, stages and timings")
    JobResponse get(Tenant tenant, @PathVariable String id) {
        return JobResponse.of(jobs.get(tenant, id));
    }

    @GetMapping(value = "/{id}", params = "waitSeconds")
    @Operation(summary = "The job once it has ended, waiting up to waitSeconds (0.." + MAX_WAIT_SECONDS + ")",
            description = "answers as soon as the job is DONE, FAILED or CANCELLED, or after waitSeconds with its "
                    + "state then; no polling needed. At most proofline.security.waits-per-key waits per key at "
                    + "once (429 beyond)")
    DeferredResult<JobResponse> await(Tenant tenant, @PathVariable String id,
                                      @RequestParam("waitSeconds") int waitSeconds) {
        if (waitSeconds < 0 || waitSeconds > MAX_WAIT_SECONDS) {
            throw InvalidFieldException.malformed("waitSeconds", "must be 0.." + MAX_WAIT_SECONDS + ", not "
                    + waitSeconds);
        }
        JobService.JobView now = jobs.get(tenant, id);
        Duration wait = Duration.ofSeconds(waitSeconds);
        DeferredResult<JobResponse> answer = new DeferredResult<>(wait.plus(WAIT_GRACE).toMillis());
        if (wait.isZero() || now.job().status().isTerminal()) {
            answer.setResult(JobResponse.of(now));
            return answer;
        }
        waits.await(tenant.principal(), id, wait).whenCompleteAsync((ended, never) -> {
            try {
                answer.setResult(JobResponse.of(jobs.get(tenant, id)));
            } catch (RuntimeException e) {
                answer.setErrorResult(e);
            }
        }, ANSWERS);
        return answer;
    }

    @GetMapping("/{id}/proof")
    @Operation(summary = "The proofs of a DONE job (409 otherwise), snarkjs shapes",
            responses = @ApiResponse(responseCode = "200", content = @Content(mediaType = "application/json",
                    schema = @Schema(implementation = ProofsResponse.class))))
    void proof(Tenant tenant, @PathVariable String id, HttpServletResponse response) throws IOException {
        // Written as the rows are read, each stored text copied as it is: no proof is parsed into a tree, and at most
        // one partition's proof is on the heap (a circuit's public signals may be a million characters).
        JsonGenerator[] json = new JsonGenerator[1];
        try {
            jobs.forEachProof(tenant, id, () -> {
                response.setStatus(HttpStatus.OK.value());
                response.setContentType(MediaType.APPLICATION_JSON_VALUE);
                response.setCharacterEncoding(java.nio.charset.StandardCharsets.UTF_8);
                try {
                    json[0] = JSON.createGenerator(response.getOutputStream());
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                json[0].writeStartObject();
                json[0].writeName("proofs");
                json[0].writeStartArray();
            }, proof -> {
                json[0].writeStartObject();
                json[0].writeName("proof");
                json[0].writeRawValue(proof.proofJson());
                json[0].writeName("publicSignals");
                json[0].writeRawValue(proof.publicSignalsJson());
                json[0].writeEndObject();
                json[0].flush();
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        json[0].writeEndArray();
        json[0].writeEndObject();
        json[0].close();
    }

    @DeleteMapping("/{id}")
    @Operation(summary = "Cancel a job (409 when it has finished)")
    ResponseEntity<JobResponse> cancel(Tenant tenant, @PathVariable String id) {
        return ResponseEntity.accepted().body(JobResponse.of(jobs.cancel(tenant, id)));
    }

    private ResponseEntity<JobResponse> accepted(JobService.Submitted submitted) {
        var location = ServletUriComponentsBuilder.fromCurrentContextPath().path("/api/v1/jobs/{id}")
                .buildAndExpand(submitted.job().id()).toUri();
        return ResponseEntity.status(submitted.created() ? HttpStatus.ACCEPTED : HttpStatus.OK).location(location)
                .body(JobResponse.of(new JobService.JobView(submitted.job(), List.of())));
    }

    static <E extends Enum<E>> E enumValue(Class<E> type, String value, String field) {
        try {
            return Enum.valueOf(type, value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw InvalidFieldException.malformed(field, "unknown " + field + " '" + value + "'; one of "
                    + java.util.Arrays.toString(type.getEnumConstants()));
        }
    }
}

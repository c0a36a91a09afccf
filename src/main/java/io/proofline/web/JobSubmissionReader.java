package io.proofline.web;

import io.proofline.web.multipart.MultipartReader;
import io.proofline.web.multipart.TextFields;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.Priority;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobUpload;
import io.proofline.service.ServiceException;
import jakarta.servlet.http.HttpServletRequest;
import tools.jackson.core.JacksonException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Reads a job submission from the request's own stream into a {@link JobUpload}: every witness goes from the
 * socket into a staged file as it arrives (a JSON body's base64 decoded on the way, a multipart part copied), so no
 * input is ever whole on the heap, and the job's size limit holds while the parts arrive. Multipart job submissions
 * are therefore not parsed by the servlet container ({@link io.proofline.web.multipart.MultipartExceptJobsResolver}).
 */
public final class JobSubmissionReader {

    public static final String JOBS = "/api/v1/jobs";
    /** The longest value of a multipart text field (circuitId, priority, requestId, verify). */
    static final int MAX_FIELD_BYTES = 1024;
    /** The most parts of a multipart job: the witnesses and the text fields. */
    static final int MAX_PARTS = JobService.MAX_PARTITIONS + 16;

    private JobSubmissionReader() {
    }

    /**
     * A JSON body ({@link JobSubmission}) read by {@code json} (a mapper with the job's read constraints,
     * {@link JsonReadLimits#jobs}); a malformed one is a 400 naming its field.
     */
    static JobService.NewJob json(InputStream body, JobUpload upload, JsonMapper json) throws IOException {
        JobSubmission submission;
        try {
            submission = json.readerFor(JobSubmission.class).withAttribute(JobUpload.class, upload).readValue(body);
        } catch (StreamConstraintsException e) {
            // past a read constraint (JsonReadLimits.jobs): no legitimate job holds such a value
            throw InvalidFieldException.unprocessable("body", e.getOriginalMessage());
        } catch (JacksonException e) {
            throw refusal(e, () -> {
                if (e instanceof DatabindException d && !d.getPath().isEmpty()) {
                    String field = d.getPath().stream().map(r -> r.getPropertyName() != null ? r.getPropertyName()
                            : "[" + r.getIndex() + "]").collect(Collectors.joining(".")).replace(".[", "[");
                    return InvalidFieldException.malformed(field, field + " has the wrong type or shape");
                }
                return InvalidFieldException.malformed("body", "the body is not valid JSON for this request");
            });
        }
        if (submission == null) {
            throw InvalidFieldException.malformed("body", "a JSON object is required");
        }
        List<JobService.NewPartition> partitions = new ArrayList<>();
        if (submission.partitions() != null) {
            for (int i = 0; i < submission.partitions().size(); i++) {
                partitions.add(partition(submission.partitions().get(i), "partitions[" + i + "]", upload));
            }
        }
        return new JobService.NewJob(submission.circuitId(), priority(submission.priority()), submission.requestId(),
                submission.verify(), partitions, upload.openedNanos(), submission.deadlineSeconds());
    }

    private static JobService.NewPartition partition(JobSubmission.Partition p, String field, JobUpload upload)
            throws IOException {
        if (p == null) {
            throw InvalidFieldException.malformed(field, field + " is null");
        }
        boolean hasWitness = p.witness() != null;
        boolean hasInput = p.input() != null;
        if (hasWitness == hasInput) {
            throw InvalidFieldException.malformed(field, field + " needs exactly one of witness and input");
        }
        return hasWitness ? p.witness() : p.input();
    }

    /**
     * A {@code multipart/form-data} body: {@code circuitId}, one {@code witness} part ({@code .wtns}) per partition
     * in order, optional {@code priority}, {@code requestId}, {@code verify}, {@code deadlineSeconds}; other parts are
     * skipped.
     */
    static JobService.NewJob multipart(HttpServletRequest request, JobUpload upload) throws IOException {
        String circuitId = null;
        String priority = null;
        String requestId = null;
        String verify = null;
        String deadline = null;
        int witnesses = 0;
        int parts = 0;
        try {
            MultipartReader body = new MultipartReader(request.getInputStream(),
                    MultipartReader.boundary(request.getContentType()));
            while (body.next()) {
                if (++parts > MAX_PARTS) {
                    throw InvalidFieldException.malformed("body", "at most " + MAX_PARTS + " parts per job");
                }
                String name = body.name();
                switch (name) {
                    case "witness" -> upload.stage(PartitionInput.Format.WTNS, "witness[" + witnesses++ + "]",
                            body::transferTo);
                    case "circuitId" -> circuitId = TextFields.read(body, name, MAX_FIELD_BYTES);
                    case "priority" -> priority = TextFields.read(body, name, MAX_FIELD_BYTES);
                    case "requestId" -> requestId = TextFields.read(body, name, MAX_FIELD_BYTES);
                    case "verify" -> verify = TextFields.read(body, name, MAX_FIELD_BYTES);
                    case "deadlineSeconds" -> deadline = TextFields.read(body, name, MAX_FIELD_BYTES);
                    default -> body.transferTo(OutputStream.nullOutputStream());
                }
            }
        } catch (MultipartReader.MalformedException e) {
            throw InvalidFieldException.malformed("body", "malformed multipart request: " + e.getMessage());
        } catch (IOException e) {
            throw refusal(e, () -> InvalidFieldException.malformed("body", "malformed multipart request: "
                    + e.getMessage()));
        }
        if (circuitId == null) {
            throw InvalidFieldException.malformed("circuitId", "'circuitId' is required");
        }
        if (witnesses == 0) {
            throw InvalidFieldException.malformed("witness", "at least one 'witness' part (.wtns) is required");
        }
        return new JobService.NewJob(circuitId, priority(priority), requestId, bool(verify, "verify"),
                upload.partitions(), upload.openedNanos(), seconds(deadline, "deadlineSeconds"));
    }

    private static Boolean bool(String value, String field) {
        if (value == null) {
            return null;
        }
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw InvalidFieldException.malformed(field, field + " must be true or false");
        };
    }

    private static Long seconds(String value, String field) {
        if (value == null) {
            return null;
        }
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw InvalidFieldException.malformed(field, field + " must be a whole number of seconds");
        }
    }

    static Priority priority(String value) {
        return value == null ? null : JobController.enumValue(Priority.class, value, "priority");
    }

    /**
     * What a failed read answers: a limit the upload or the body crossed (413), a body that arrived too slowly
     * (408), a refusal of the service or a failure to write the staged file (500), wherever the parser wrapped it;
     * else the request's own fault ({@code otherwise}, a 400), including a body cut off by the client.
     */
    private static RuntimeException refusal(Exception e, java.util.function.Supplier<RuntimeException> otherwise)
            throws IOException {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ServiceException service) {
                throw service;
            }
            if (t instanceof UncheckedIOException staging) {
                throw staging;
            }
            if (t instanceof RequestTooLargeException tooLarge) {
                throw tooLarge;
            }
            if (t instanceof BodyReadTimeoutException slow) {
                throw slow;
            }
        }
        return otherwise.get();
    }
}

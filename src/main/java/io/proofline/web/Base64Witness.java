package io.proofline.web;

import io.proofline.engine.PartitionInput;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobUpload;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;
import tools.jackson.databind.exc.InvalidFormatException;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A base64 witness decoded as the parser reads it from the request, straight into a file of the submission's
 * {@link JobUpload} (the reader's attribute {@code JobUpload.class}): neither its text nor its bytes are ever held
 * whole. Bad base64 is a mapping error of the field, so the 400 names it ({@code partitions[1].witness}) like any
 * other wrong value; a witness that takes the job past its size limit is the upload's 413.
 */
final class Base64Witness extends ValueDeserializer<JobService.NewPartition> {

    @Override
    public JobService.NewPartition deserialize(JsonParser p, DeserializationContext ctxt) {
        if (!p.hasToken(JsonToken.VALUE_STRING)) {
            return (JobService.NewPartition) ctxt.handleUnexpectedToken(JobService.NewPartition.class, p);
        }
        if (!(ctxt.getAttribute(JobUpload.class) instanceof JobUpload upload)) {
            throw new IllegalStateException("a witness is read only into a JobUpload (JobSubmissionReader)");
        }
        var partition = p.streamReadContext().getParent();
        String field = "partitions[" + (partition != null && partition.inArray() ? partition.getCurrentIndex() : 0)
                + "].witness";
        try {
            return upload.stage(PartitionInput.Format.WTNS, field, out -> p.readBinaryValue(out));
        } catch (StreamReadException e) {
            throw InvalidFormatException.from(p, "not base64: " + e.getOriginalMessage(), null,
                    JobService.NewPartition.class);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage " + field, e);
        }
    }
}

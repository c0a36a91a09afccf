package io.proofline.web;

import io.proofline.engine.PartitionInput;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobUpload;
import io.proofline.witness.InputJsonReader;
import io.proofline.witness.WitnessException;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.JsonParser;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.DeserializationContext;
import tools.jackson.databind.ValueDeserializer;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * A partition's circuit input read token by token as the parser reads the request and written, flattened, into a
 * staged file of the submission's {@link JobUpload}: {@code {"signal": [values...], ...}}, one key per qualified
 * signal name ({@code ps[0].x}), each value the token as given. Flattening that file again gives the same signals and
 * values, so synthesis streams it into the witness calculator ({@link InputJsonReader#source}). Every value is checked
 * as it passes (digits, integer, not null), and so are the nesting and the names; the input is never a tree, so a
 * body of millions of numbers costs the parser's buffer. A refused input is a 422 naming its partition.
 */
final class StagedInput extends ValueDeserializer<JobService.NewPartition> {

    private static final JsonFactory FILES = JsonFactory.builder().build();

    @Override
    public JobService.NewPartition deserialize(JsonParser p, DeserializationContext ctxt) {
        if (!(ctxt.getAttribute(JobUpload.class) instanceof JobUpload upload)) {
            throw new IllegalStateException("an input is read only into a JobUpload (JobSubmissionReader)");
        }
        var context = p.streamReadContext();
        if (p.isExpectedStartObjectToken() && context.getParent() != null) {
            context = context.getParent(); // at START_OBJECT the parser is already inside the input
        }
        var partition = context.getParent();
        String field = "partitions[" + (partition != null && partition.inArray() ? partition.getCurrentIndex() : 0)
                + "].input";
        if (!p.isExpectedStartObjectToken()) {
            throw InvalidFieldException.malformed(field, "input must be a JSON object");
        }
        try {
            return upload.stage(PartitionInput.Format.INPUT_JSON, field, out -> {
                try (JsonGenerator g = FILES.createGenerator(ObjectWriteContext.empty(), out)) {
                    g.writeStartObject();
                    InputJsonReader.read(p, new InputJsonReader.Sink() {
                        @Override
                        public void start(String signal) {
                            g.writeName(signal);
                            g.writeStartArray();
                        }

                        @Override
                        public void value(String signal, JsonParser parser) {
                            g.copyCurrentEvent(parser);
                        }

                        @Override
                        public void end(String signal, long count) {
                            g.writeEndArray();
                        }
                    });
                    g.writeEndObject();
                }
            });
        } catch (WitnessException e) {
            throw InvalidFieldException.unprocessable(field, e.getMessage());
        } catch (StreamConstraintsException e) {
            throw InvalidFieldException.unprocessable(field, e.getOriginalMessage()); // JsonReadLimits.jobs
        } catch (IOException e) {
            throw new UncheckedIOException("cannot stage " + field, e);
        }
    }
}

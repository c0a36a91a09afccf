package io.proofline.web;

import io.proofline.witness.InputJsonReader;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;
import tools.jackson.databind.json.JsonMapper;

/**
 * Jackson's read constraints for each JSON document a request carries, from the service's size settings, so that the
 * parser refuses what no legitimate document holds before it is built: the document's length (its endpoint's body
 * limit), nesting, the length of a number, a string and a name, and for a verification the number of tokens (a key,
 * a proof and the signals of a circuit with {@code max-public-signals}). Jackson's defaults allow 20 MB strings,
 * 1000-digit numbers and 500 levels.
 */
final class JsonReadLimits {

    /** The longest string of a job or verification other than a base64 witness (decoded as a stream, not a string). */
    static final int MAX_STRING = 1024;
    /** Numbers: a field element has at most 78 decimal digits, a BLS12-381 coordinate 116; exponents and signs. */
    static final int MAX_NUMBER = 200;
    /** A verification's nesting: request → key → G2 point → coordinate → value. */
    static final int VERIFY_DEPTH = 8;
    /** A verification's tokens per public signal: its IC point (an array of three strings) and its value, with room. */
    static final long VERIFY_TOKENS_PER_SIGNAL = 8;
    /** A verification's other tokens: the key's fixed points, the proof, the request's fields. */
    static final long VERIFY_TOKENS_FIXED = 1024;

    private JsonReadLimits() {
    }

    /**
     * A job submission: the whole body within {@code proofline.store.max-job-size}; an input's nesting, numbers and
     * names as {@link InputJsonReader} takes them (which checks every value itself), a little deeper for the job
     * around it.
     */
    static JsonMapper jobs(BodyLimits limits) {
        return mapper(StreamReadConstraints.builder().maxDocumentLength(limits.job())
                .maxNestingDepth(InputJsonReader.MAX_DEPTH + 8).maxNumberLength(MAX_NUMBER)
                .maxStringLength(MAX_STRING).maxNameLength(InputJsonReader.MAX_NAME_CHARS).build());
    }

    /** A verification: its body limit, and the tokens of the largest legitimate one. */
    static JsonMapper verify(BodyLimits limits, int maxPublicSignals) {
        return mapper(StreamReadConstraints.builder().maxDocumentLength(limits.verify())
                .maxNestingDepth(VERIFY_DEPTH).maxNumberLength(MAX_NUMBER).maxStringLength(MAX_STRING)
                .maxNameLength(64)
                .maxTokenCount(VERIFY_TOKENS_FIXED + VERIFY_TOKENS_PER_SIGNAL * (maxPublicSignals + 1L)).build());
    }

    private static JsonMapper mapper(StreamReadConstraints constraints) {
        return JsonMapper.builder(JsonFactory.builder().streamReadConstraints(constraints).build()).build();
    }
}

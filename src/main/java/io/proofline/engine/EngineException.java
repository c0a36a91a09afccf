package io.proofline.engine;

/**
 * Everything the engine throws to its callers, or records as a job's failure. Admission refusals are
 * {@link RejectedException}s (the REST layer maps them to 4xx/429); the rest say why a job failed.
 */
public sealed abstract class EngineException extends RuntimeException
        permits RejectedException, UnknownJobException, DeadlineExceededException, NoDeviceAvailableException,
        InvalidProofException {

    EngineException(String message) {
        super(message);
    }

    EngineException(String message, Throwable cause) {
        super(message, cause);
    }
}

package io.proofline.engine;

/** A submission the engine refused; nothing of it was queued. */
public sealed abstract class RejectedException extends EngineException
        permits QueueFullException, PartitionTooLargeException, IntakeClosedException {

    RejectedException(String message) {
        super(message);
    }
}

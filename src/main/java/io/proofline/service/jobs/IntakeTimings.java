package io.proofline.service.jobs;

/**
 * The submit call's own time on the service, split (REST {@code timings.intake}, milliseconds, one after the other):
 * {@code receivedMs} from the start of the request's handling until its body has been read and every input written
 * to its staged file; {@code checkedMs} the inputs checked against the circuit (while they are forced to disk);
 * {@code durableMs} the wait beyond the check until the inputs are on disk in the job's directory (files and
 * directory entries forced); {@code rowsMs} the job's rows and its queue entry written, up to their commit. What the
 * client measures beyond their sum is the connection, the request's headers, the commit and the answer.
 */
public record IntakeTimings(long receivedMs, long checkedMs, long durableMs, long rowsMs) {
}

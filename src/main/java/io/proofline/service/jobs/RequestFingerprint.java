package io.proofline.service.jobs;

import io.proofline.engine.Priority;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The SHA-256 of what a submission asks for (circuit, priority, verify flag, each partition's format, size and
 * SHA-256), so that a repeated {@code requestId} can be told apart: the same submission again is a replay (answered
 * with the job it made), a different one reuses the id by mistake (409). Every field is length-prefixed, so no two
 * different submissions hash the same bytes.
 */
final class RequestFingerprint {

    private RequestFingerprint() {
    }

    static String of(JobService.NewJob job) {
        MessageDigest sha = sha256();
        text(sha, job.circuitId());
        // no priority means NORMAL: a replay that spells the default out is still the same submission
        text(sha, (job.priority() == null ? Priority.NORMAL : job.priority()).name());
        text(sha, job.verify() == null ? null : job.verify().toString());
        int partitions = job.partitions() == null ? -1 : job.partitions().size();
        sha.update(ByteBuffer.allocate(Integer.BYTES).putInt(partitions).array());
        if (job.partitions() != null) {
            for (JobService.NewPartition p : job.partitions()) {
                text(sha, p.format() == null ? null : p.format().name());
                // the part's own digest, taken while it was staged: its bytes are never held to hash them again
                sha.update(ByteBuffer.allocate(Long.BYTES).putLong(p.size()).array());
                text(sha, p.sha256());
            }
        }
        return HexFormat.of().formatHex(sha.digest());
    }

    private static void text(MessageDigest sha, String value) {
        bytes(sha, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
    }

    private static void bytes(MessageDigest sha, byte[] value) {
        sha.update(ByteBuffer.allocate(Long.BYTES).putLong(value == null ? -1 : value.length).array());
        if (value != null) {
            sha.update(value);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.proofline.engine;

import java.util.Objects;
import java.util.UUID;

/** Identifies one submitted job. */
public record JobId(String value) {

    public JobId {
        Objects.requireNonNull(value, "value");
        if (value.isBlank()) {
            throw new IllegalArgumentException("a job id must not be blank");
        }
    }

    public static JobId random() {
        return new JobId(UUID.randomUUID().toString());
    }

    @Override
    public String toString() {
        return value;
    }
}

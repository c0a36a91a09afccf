package io.proofline.web;

import io.proofline.service.config.StoreProperties;

import java.time.Duration;

/**
 * The size limit of each endpoint's request body, taken from the service's settings, and the one deadline they all
 * arrive by. A verification's limit is the largest legitimate one: a BLS12-381 verification key (the longer
 * coordinates) of a circuit with {@code proofline.store.max-public-signals} signals, pretty-printed as snarkjs writes
 * it (about 410 bytes an IC point), the proof and as many public signals (about 80 bytes each): 1 KiB a signal and
 * 64 KiB beside them.
 *
 * @param job         {@code POST /api/v1/jobs}
 * @param circuit     {@code POST /api/v1/circuits} (the zkey, wasm and r1cs together)
 * @param verify      {@code POST /api/v1/verify}
 * @param readTimeout how long any body may take to arrive
 */
public record BodyLimits(long job, long circuit, long verify, Duration readTimeout) {

    /** Any other request under {@code /api/**} (none takes a body now). */
    public static final long OTHER = 64 * 1024;
    /** A verification's bytes beside its public signals and IC points. */
    static final long VERIFY_FIXED = 64 * 1024;
    /** A verification's bytes per public signal: its IC point in the key and its value. */
    static final long VERIFY_PER_SIGNAL = 1024;

    public static BodyLimits of(StoreProperties store) {
        return new BodyLimits(store.maxJobSize().toBytes(), store.maxCircuitSize().toBytes(),
                verifyBytes(store.maxPublicSignals()), store.bodyReadTimeout());
    }

    static long verifyBytes(int maxPublicSignals) {
        return VERIFY_FIXED + (maxPublicSignals + 1L) * VERIFY_PER_SIGNAL;
    }

    /** A limit and the setting that gives it (named in a 413). */
    public record Limit(long bytes, String setting) {
    }

    /** The limit of a request to {@code path} (below the context path). */
    public Limit of(String path) {
        return switch (stripSlash(path)) {
            case JobSubmissionReader.JOBS -> new Limit(job, "proofline.store.max-job-size");
            case CircuitController.PATH -> new Limit(circuit, "proofline.store.max-circuit-size");
            case VerifyController.PATH -> new Limit(verify, "proofline.store.max-public-signals");
            default -> new Limit(OTHER, "a fixed " + OTHER + " bytes");
        };
    }

    private static String stripSlash(String path) {
        return path.length() > 1 && path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}

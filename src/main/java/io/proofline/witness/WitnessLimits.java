package io.proofline.witness;

import java.time.Duration;
import java.util.Objects;

/**
 * The sandbox a circuit's witness calculator runs in: the service runs wasm that API clients upload, so a module that
 * loops, grows its memory without end or floods its log must fail alone, naming the limit it hit
 * ({@link WitnessException.Reason#LIMIT}), while everything else keeps running.
 *
 * @param timeout        one witness computation, from instantiation to the last value read; {@link Duration#ZERO}:
 *                       none
 * @param loadTimeout    running the module at load (its start function and the exports that describe the circuit);
 *                       {@link Duration#ZERO}: none
 * @param maxMemoryBytes the linear memory of one instance: a module that declares or grows more is stopped
 * @param maxLogBytes    the characters one computation may send through {@code log()} and circom's error messages
 */
public record WitnessLimits(Duration timeout, Duration loadTimeout, long maxMemoryBytes, long maxLogBytes) {

    /** The most a wasm32 linear memory can hold: 65,536 pages of 64 KiB. */
    public static final long WASM32_MAX_MEMORY = 65_536L * 65_536L;

    public WitnessLimits {
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(loadTimeout, "loadTimeout");
        if (timeout.isNegative() || loadTimeout.isNegative()) {
            throw new IllegalArgumentException("witness timeouts must not be negative");
        }
        if (maxMemoryBytes < 65_536 || maxLogBytes < 1) {
            throw new IllegalArgumentException("the witness memory limit must be at least one 64 KiB page and the log "
                    + "limit at least 1 byte");
        }
        maxMemoryBytes = Math.min(maxMemoryBytes, WASM32_MAX_MEMORY);
    }

    /**
     * A module's parsed form and compiled classes live on the heap, several times its size: a module file may be
     * at most this fraction of the linear memory cap ({@link #maxModuleBytes()}).
     */
    public static final int MODULE_EXPANSION = 8;

    /**
     * The largest module file that is read, parsed and compiled: {@code 1/}{@value #MODULE_EXPANSION} of
     * {@code maxMemoryBytes}, so that loading a module stays within the heap one instance is declared to take.
     */
    public long maxModuleBytes() {
        return maxMemoryBytes / MODULE_EXPANSION;
    }

    /** For wasm from anyone: the service's defaults. */
    public static WitnessLimits defaults() {
        return new WitnessLimits(Duration.ofMinutes(2), Duration.ofSeconds(10), 1L << 30, 1L << 20);
    }

    /** For one's own circuit on one's own machine (the CLI): no deadline, the whole wasm32 memory. */
    public static WitnessLimits unlimited() {
        return new WitnessLimits(Duration.ZERO, Duration.ZERO, WASM32_MAX_MEMORY, Integer.MAX_VALUE);
    }
}

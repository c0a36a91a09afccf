package io.proofline.witness;

import java.util.List;
import java.util.OptionalInt;

/**
 * Witness computation failed. The message is the one circom's own {@code witness_calculator.js}
 * gives (e.g. {@code "Assert Failed. Error in template Bounded_0 line: 11"}), so a user can find
 * the failing line in the circuit source; {@link #reason()} says whose fault it is.
 */
public final class WitnessException extends RuntimeException {

    /** Whose fault a failure is: it decides, for example, whether a REST client gets a 4xx or a 5xx. */
    public enum Reason {
        /** The bytes are not a circom 2 witness calculator (bad wasm, missing exports, unknown imports). */
        INVALID_MODULE,
        /** The input does not fit the circuit: unknown signal, wrong number of values, not an integer. */
        INVALID_INPUT,
        /** The circuit rejected the input: a failed {@code assert}, or another error circom reports. */
        CIRCUIT_ERROR,
        /** The WebAssembly code trapped (out of memory, unreachable, stack overflow). */
        RUNTIME_TRAP,
        /** The computing thread was interrupted (a cancelled job); its interrupt flag stays set. */
        INTERRUPTED,
        /**
         * The module passed a {@link WitnessLimits} bound: it ran too long, declared or grew too much memory, logged
         * too much, or reported a size no circuit has. The message names the limit.
         */
        LIMIT
    }

    private final Reason reason;
    private final int circomErrorCode;
    private final List<String> log;

    public WitnessException(Reason reason, String message) {
        this(reason, message, -1, List.of(), null);
    }

    public WitnessException(Reason reason, String message, Throwable cause) {
        this(reason, message, -1, List.of(), cause);
    }

    /**
     * @param circomErrorCode the code the circuit passed to {@code runtime.exceptionHandler}
     *                        (4 = assert failed, ...), or -1 when the failure did not come from there
     * @param log             the lines the circuit printed with {@code log()} before it failed
     */
    public WitnessException(Reason reason, String message, int circomErrorCode, List<String> log, Throwable cause) {
        super(message, cause);
        this.reason = reason;
        this.circomErrorCode = circomErrorCode;
        this.log = List.copyOf(log);
    }

    public Reason reason() {
        return reason;
    }

    /** The code of circom's {@code exceptionHandler} (1..7, see {@code CircomErrorCode}), when it was the source. */
    public OptionalInt circomErrorCode() {
        return circomErrorCode < 0 ? OptionalInt.empty() : OptionalInt.of(circomErrorCode);
    }

    /** What the circuit printed with {@code log()} before it failed: often the best clue to why. */
    public List<String> log() {
        return log;
    }
}

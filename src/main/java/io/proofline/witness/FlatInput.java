package io.proofline.witness;

import tools.jackson.core.JsonParser;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A witness computation's input flattened into a caller's memory: each value reduced mod the circuit's prime as
 * {@code n8} little-endian bytes (snarkjs's {@code normalize}), one after another in the input's order, and on the
 * heap only the signals' names with their place among the values. The memory holds at most as many values as the
 * circuit has inputs; an input with more values (or more signals than could name them) is refused as it is read,
 * so whatever the input, this costs no more than its reservation.
 */
public final class FlatInput {

    /** One signal of the input: its qualified name and its values' place ({@code offset .. offset + count}). */
    public record Signal(String name, int offset, int count) {
    }

    /** Signals with no values (empty arrays) admitted beyond the values' count: names of nothing still cost heap. */
    static final int EMPTY_SIGNALS = 1024;
    /**
     * Signals with values admitted beyond the circuit's inputs (each input signal takes one name, so more are
     * mistakes): enough that circom's own check names the first unknown one, few enough that names cost no heap.
     */
    static final int EXTRA_SIGNALS = 1024;

    private final MemorySegment values;
    private final int n8;
    private final int capacity;
    private final BigInteger prime;
    private final int maxSignals;
    private final List<Signal> signals = new ArrayList<>();
    private int size;
    private int empty;

    private FlatInput(MemorySegment values, int n8, int capacity, int maxSignals, BigInteger prime) {
        if (values.byteSize() < (long) capacity * n8) {
            throw new IllegalArgumentException("room for " + values.byteSize() / n8 + " values, not " + capacity);
        }
        this.values = values;
        this.n8 = n8;
        this.capacity = capacity;
        this.maxSignals = maxSignals;
        this.prime = prime;
    }

    /**
     * Fills {@code values} (at least {@code capacity · n8} bytes) from {@code source}, with at most {@code inputs}
     * signals that have values (the circuit's input count; {@link #EXTRA_SIGNALS} more are let through for circom to
     * name) and {@link #EMPTY_SIGNALS} without.
     */
    static FlatInput read(InputSource source, MemorySegment values, int n8, int capacity, int inputs,
                          BigInteger prime) {
        FlatInput input = new FlatInput(values, n8, capacity, (int) Math.min(Integer.MAX_VALUE,
                (long) inputs + EXTRA_SIGNALS), prime);
        source.feed(input.sink());
        return input;
    }

    /** The signals in the input's order. */
    public List<Signal> signals() {
        return Collections.unmodifiableList(signals);
    }

    /** The number of values over all signals. */
    public int size() {
        return size;
    }

    /** Value {@code k} (in the input's order), in {@code [0, prime)}. */
    public BigInteger value(int k) {
        byte[] le = new byte[n8];
        copyValue(k, le);
        return Bytes.fromLittleEndian(le, 0, n8);
    }

    /** Copies value {@code k}'s {@code n8} little-endian bytes into {@code to}. */
    public void copyValue(int k, byte[] to) {
        MemorySegment.copy(values, java.lang.foreign.ValueLayout.JAVA_BYTE, (long) k * n8, to, 0, n8);
    }

    /** A sink that flattens values given as integers; also what {@link InputSource#feed} gets. */
    public final class Sink {
        private String signal;
        private int offset;

        private Sink() {
        }

        /** A signal starts. */
        public void start(String name) {
            if (signal != null) {
                throw new IllegalStateException("signal " + signal + " has not ended");
            }
            signal = name;
            offset = size;
        }

        /** The current signal's next value, as given (reduced here). */
        public void add(BigInteger value) {
            if (size == capacity) {
                throw new WitnessException(WitnessException.Reason.INVALID_INPUT, "the input has more values than "
                        + "the circuit's witness (" + capacity + " values; input '" + signal + "')");
            }
            byte[] le = Bytes.toLittleEndian(value.mod(prime), n8);
            MemorySegment.copy(le, 0, values, java.lang.foreign.ValueLayout.JAVA_BYTE, (long) size * n8, n8);
            size++;
        }

        /** The current signal ends. */
        public void end() {
            int count = size - offset;
            if (count == 0 && ++empty > EMPTY_SIGNALS) {
                throw new WitnessException(WitnessException.Reason.INVALID_INPUT, "the input has more than "
                        + EMPTY_SIGNALS + " empty signals");
            }
            if (count > 0 && signals.size() - empty >= maxSignals) {
                throw new WitnessException(WitnessException.Reason.INVALID_INPUT, "the input has more signals than "
                        + "the circuit has inputs (input '" + signal + "')");
            }
            signals.add(new Signal(signal, offset, count));
            signal = null;
        }

        /** The same sink for {@link InputJsonReader}: each value read from the parser's token. */
        public InputJsonReader.Sink json() {
            return new InputJsonReader.Sink() {
                @Override
                public void start(String name) {
                    Sink.this.start(name);
                }

                @Override
                public void value(String name, JsonParser parser) {
                    add(InputJsonReader.value(name, parser));
                }

                @Override
                public void end(String name, long count) {
                    Sink.this.end();
                }
            };
        }
    }

    private Sink sink() {
        return new Sink();
    }
}

package io.proofline.witness;

import java.math.BigInteger;
import java.util.Arrays;
import java.lang.foreign.MemorySegment;
import java.util.List;

/**
 * A computed witness: {@code w[0] = 1}, then the public signals (outputs, then public inputs), then the
 * private ones, in circom's order. Values are kept as one array of canonical little-endian field
 * elements of {@link #n8()} bytes each, exactly what section 2 of a {@code .wtns} file holds, so handing
 * them to a prover or a file costs one copy.
 */
public final class CircomWitness {

    private final BigInteger prime;
    private final int n8;
    private final byte[] values;
    private final List<String> log;
    private final WitnessEngine engine;

    /**
     * @param values {@code size · n8} bytes, each value canonical (below {@code prime}) and little-endian;
     *               taken over, not copied
     */
    CircomWitness(BigInteger prime, int n8, byte[] values, List<String> log, WitnessEngine engine) {
        if (values.length % n8 != 0) {
            throw new IllegalArgumentException(values.length + " bytes is not a whole number of " + n8 + "-byte values");
        }
        this.prime = prime;
        this.n8 = n8;
        this.values = values;
        this.log = List.copyOf(log);
        this.engine = engine;
    }

    /** Which engine computed it. */
    public WitnessEngine engine() {
        return engine;
    }

    /** The scalar field's prime r of the circuit (circom's {@code --prime}). */
    public BigInteger prime() {
        return prime;
    }

    /** Bytes per field element (32 for bn128 and BLS12-381). */
    public int n8() {
        return n8;
    }

    /** Number of witness values, {@code w[0]} included. */
    public int size() {
        return values.length / n8;
    }

    /** Value {@code i} as an integer in {@code [0, prime)}. */
    public BigInteger get(int i) {
        return Bytes.fromLittleEndian(values, i * n8, n8);
    }

    /** All values as integers. Prefer {@link #toLittleEndianBytes()} for large witnesses. */
    public BigInteger[] values() {
        BigInteger[] all = new BigInteger[size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = get(i);
        }
        return all;
    }

    /** A copy of the values as {@code size · n8} canonical little-endian bytes (a {@code .wtns} section 2). */
    public byte[] toLittleEndianBytes() {
        return values.clone();
    }

    /** Copies the values, as {@link #toLittleEndianBytes()} holds them, to the start of {@code target}. */
    public void copyTo(MemorySegment target) {
        MemorySegment.copy(MemorySegment.ofArray(values), 0, target, 0, values.length);
    }

    /** The prime as {@code n8} little-endian bytes (as in a {@code .wtns} section 1). */
    public byte[] primeLittleEndian() {
        return Bytes.toLittleEndian(prime, n8);
    }

    /** What the circuit printed with {@code log()}, one entry per line. */
    public List<String> log() {
        return log;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CircomWitness w && prime.equals(w.prime) && n8 == w.n8 && Arrays.equals(values, w.values);
    }

    @Override
    public int hashCode() {
        return 31 * prime.hashCode() + Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return "CircomWitness[" + size() + " values of " + n8 + " bytes, prime " + prime + "]";
    }
}

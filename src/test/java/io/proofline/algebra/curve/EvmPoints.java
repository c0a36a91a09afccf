package io.proofline.algebra.curve;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;

/**
 * The Ethereum precompile encodings of points: big-endian canonical (not Montgomery) field elements, x then y,
 * all zeros for infinity.
 * <ul>
 *   <li>{@link #EIP_196}: BN254 (EIP-196/197), 32-byte elements; a G2 coordinate is written imaginary part first
 *       (c1, c0), as the pairing precompile expects.
 *   <li>{@link #EIP_2537}: BLS12-381, 64-byte elements (16 zero bytes of padding, then 48); G2 coordinates as c0, c1.
 * </ul>
 * A test helper: the service reads no EVM input; go-ethereum's precompile vectors ({@link EthPrecompileVectorsTest})
 * are written in it.
 */
final class EvmPoints {

    public static final EvmPoints EIP_196 = new EvmPoints("EIP-196/197", 32, true);
    public static final EvmPoints EIP_2537 = new EvmPoints("EIP-2537", 64, false);

    /** Bytes of a scalar in both encodings (big-endian, need not be reduced). */
    public static final int SCALAR_BYTES = 32;

    private final String name;
    private final int elementBytes;
    private final boolean imaginaryFirst;

    private EvmPoints(String name, int elementBytes, boolean imaginaryFirst) {
        this.name = name;
        this.elementBytes = elementBytes;
        this.imaginaryFirst = imaginaryFirst;
    }

    /** Bytes of one point of {@code g}. */
    public int pointBytes(CurveGroup g) {
        return (g.overFp2() ? 4 : 2) * elementBytes;
    }

    /**
     * Decodes a point at {@code off}: checks that {@code in.length - off} is at least a point (use
     * {@link #requireLength} for exact inputs), padding is zero, coordinates are reduced, the point is on the curve
     * and, when {@code subgroup}, in the subgroup. Throws {@link InvalidPointException} with a specific message.
     */
    public long[] decode(CurveGroup g, byte[] in, int off, boolean subgroup) {
        int size = pointBytes(g);
        if (in.length - off < size) {
            throw new InvalidPointException(InvalidPointException.Reason.BAD_LENGTH,
                    g.name() + " " + name + ": a point needs " + size + " bytes, " + (in.length - off) + " left");
        }
        PrimeField fp = g.baseField();
        int n = fp.limbs();
        int pad = elementBytes - (fp.modulus().bitLength() + 7) / 8;    // 16 bytes for EIP-2537, none for EIP-196
        long[] p = new long[g.affineWidth()];
        int elements = g.overFp2() ? 4 : 2;
        for (int e = 0; e < elements; e++) {
            int at = off + e * elementBytes;
            int slot = g.overFp2() && imaginaryFirst ? (e ^ 1) : e;   // (c1, c0) → c0 at slot 2k, c1 at 2k+1
            String coordinate = coordinateName(g, slot);
            for (int i = 0; i < pad; i++) {
                if (in[at + i] != 0) {
                    throw new InvalidPointException(InvalidPointException.Reason.NOT_REDUCED, g.name() + " " + name
                            + ": coordinate " + coordinate + " has non-zero top bytes (beyond the field size)");
                }
            }
            BigInteger v = new BigInteger(1, java.util.Arrays.copyOfRange(in, at + pad, at + elementBytes));
            if (v.compareTo(fp.modulus()) >= 0) {
                throw new InvalidPointException(InvalidPointException.Reason.NOT_REDUCED, g.name() + " " + name
                        + ": coordinate " + coordinate + " is not reduced (≥ the field modulus)");
            }
            fp.fromBigInteger(v, p, slot * n);
        }
        g.newOps().requireValid(p, 0, subgroup, g.name() + " " + name);
        return p;
    }

    /** Encodes an affine point ({@link #pointBytes} bytes). */
    public byte[] encode(CurveGroup g, long[] p) {
        PrimeField fp = g.baseField();
        int n = fp.limbs();
        int elements = g.overFp2() ? 4 : 2;
        byte[] out = new byte[pointBytes(g)];
        for (int e = 0; e < elements; e++) {
            int slot = g.overFp2() && imaginaryFirst ? (e ^ 1) : e;
            byte[] be = fp.toBigInteger(p, slot * n).toByteArray();
            int len = Math.min(be.length, elementBytes);
            System.arraycopy(be, be.length - len, out, (e + 1) * elementBytes - len, len);
        }
        return out;
    }

    /** A 32-byte big-endian scalar at {@code off} (any value below 2^256; not reduced). */
    public BigInteger decodeScalar(byte[] in, int off) {
        if (in.length - off < SCALAR_BYTES) {
            throw new InvalidPointException(InvalidPointException.Reason.BAD_LENGTH,
                    name + ": a scalar needs " + SCALAR_BYTES + " bytes, " + (in.length - off) + " left");
        }
        return new BigInteger(1, java.util.Arrays.copyOfRange(in, off, off + SCALAR_BYTES));
    }

    /** Throws a BAD_LENGTH {@link InvalidPointException} unless {@code actual == expected}. */
    public void requireLength(String operation, int actual, int expected) {
        if (actual != expected) {
            throw new InvalidPointException(InvalidPointException.Reason.BAD_LENGTH,
                    name + " " + operation + ": invalid input length " + actual + ", expected " + expected);
        }
    }

    private static String coordinateName(CurveGroup g, int slot) {
        if (!g.overFp2()) {
            return slot == 0 ? "x" : "y";
        }
        return (slot < 2 ? "x" : "y") + ".c" + (slot & 1);
    }

    @Override
    public String toString() {
        return name;
    }
}

package io.proofline.witness;

import java.math.BigInteger;

/** Little-endian fixed-width integers, the byte order of every snarkjs container. */
final class Bytes {

    private Bytes() {
    }

    static BigInteger fromLittleEndian(byte[] bytes, int offset, int length) {
        byte[] bigEndian = new byte[length + 1]; // leading 0 keeps it non-negative
        for (int i = 0; i < length; i++) {
            bigEndian[length - i] = bytes[offset + i];
        }
        return new BigInteger(bigEndian);
    }

    /** {@code value} (non-negative, below 2^(8·length)) as exactly {@code length} little-endian bytes. */
    static byte[] toLittleEndian(BigInteger value, int length) {
        if (value.signum() < 0 || value.bitLength() > 8 * length) {
            throw new IllegalArgumentException(value + " does not fit in " + length + " unsigned bytes");
        }
        byte[] bigEndian = value.toByteArray();
        byte[] out = new byte[length];
        for (int i = 0; i < length && i < bigEndian.length; i++) {
            out[i] = bigEndian[bigEndian.length - 1 - i];
        }
        return out;
    }
}

package io.proofline.snark.format;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * Writes a {@link ProvingKey} as a snarkjs Groth16 {@code .zkey}, sections in the order {@code snarkjs zkey new}
 * writes them (1, 2, 4, 3, 9, 8, 5, 6, 7, 10), so a key read from snarkjs and written back is byte-for-byte the
 * same file.
 *
 * <p>A key without a contributions section gets the one {@code zkey new} writes for a fresh key: a 64-byte circuit
 * hash and a u32 count of 0 contributions. Our hash is zeros (snarkjs's is a BLAKE2b over the key's points);
 * {@code snarkjs zkey export verificationkey} and {@code groth16 prove} do not read it, only {@code zkey verify}
 * and new contributions would.
 */
public final class ZkeyWriter {

    private static final int CIRCUIT_HASH_BYTES = 64;

    private ZkeyWriter() {
    }

    public static void write(ProvingKey key, Path path) throws IOException {
        SnarkCurve curve = key.curve();
        try (BinFileWriter out = new BinFileWriter(path, ZkeyReader.MAGIC, ZkeyReader.VERSION, 10)) {
            out.section(ZkeyReader.PROTOCOL, BinFileWriter.buffer(4).putInt(ZkeyReader.GROTH16).array());
            out.section(ZkeyReader.HEADER, header(key, curve));
            ByteBuffer count = BinFileWriter.buffer(4).putInt(key.coefficients().count());
            out.section(ZkeyReader.COEFFICIENTS, MemorySegment.ofArray(count.array()),
                    key.coefficients().records());
            out.section(ZkeyReader.IC, limbsToBytes(key.ic()));
            out.section(ZkeyReader.POINTS_H, key.h());
            out.section(ZkeyReader.POINTS_C, key.c());
            out.section(ZkeyReader.POINTS_A, key.a());
            out.section(ZkeyReader.POINTS_B1, key.b1());
            out.section(ZkeyReader.POINTS_B2, key.b2());
            if (key.contributions().byteSize() > 0) {
                out.section(ZkeyReader.CONTRIBUTIONS, key.contributions());
            } else {
                out.section(ZkeyReader.CONTRIBUTIONS, new byte[CIRCUIT_HASH_BYTES + 4]);
            }
        }
    }

    private static byte[] header(ProvingKey key, SnarkCurve curve) {
        int n8q = curve.fq().bytes();
        int n8r = curve.fr().bytes();
        ByteBuffer b = BinFileWriter.buffer(4 + n8q + 4 + n8r + 12 + 3 * curve.g1Bytes() + 3 * curve.g2Bytes());
        b.putInt(n8q);
        BinFileWriter.putBigInt(b, curve.fq().modulus(), n8q);
        b.putInt(n8r);
        BinFileWriter.putBigInt(b, curve.fr().modulus(), n8r);
        b.putInt(key.nVars()).putInt(key.nPublic()).putInt(key.domainSize());
        for (long[] point : new long[][] {key.alpha1(), key.beta1(), key.beta2(), key.gamma2(), key.delta1(),
                key.delta2()}) {
            putLimbs(b, point);
        }
        return b.array();
    }

    private static byte[] limbsToBytes(long[] limbs) {
        ByteBuffer b = BinFileWriter.buffer(8 * limbs.length);
        putLimbs(b, limbs);
        return b.array();
    }

    private static void putLimbs(ByteBuffer b, long[] limbs) {
        for (long l : limbs) {
            b.putLong(l);
        }
    }
}

package io.proofline.snark.format;

import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.SnarkCurve;

import java.lang.foreign.MemorySegment;
import java.util.stream.LongStream;

/**
 * Checks the affine points of a loaded key, once, when it is loaded: every coordinate reduced below q and every
 * point on its curve (E: y² = x³ + b for G1, the twist E': y² = x³ + b' over 𝔽q² for G2), the point at infinity
 * (all zeros) accepted. Large sections are checked in parallel chunks; the first bad point (lowest index) is
 * reported.
 *
 * <p>Cost: per point one 𝔽q (G1) or 𝔽q² (G2) squaring and cube, about 4 multiplications.
 */
final class PointValidation {

    /** Points per parallel task: large enough to amortise the task, small enough to spread 2^20 points. */
    private static final int CHUNK = 1 << 12;

    private final SnarkCurve curve;
    private final PrimeField fq;
    private final int limbs;
    private final long[] modulus;
    private final long[] b1;
    private final long[] b2;

    PointValidation(SnarkCurve curve) {
        this.curve = curve;
        this.fq = curve.fq();
        this.limbs = fq.limbs();
        this.modulus = fq.modulusLimbs();
        this.b1 = fq.fromBigInteger(curve.g1B());
        this.b2 = new long[2 * limbs];
        fq.fromBigInteger(curve.g2B()[0], b2, 0);
        fq.fromBigInteger(curve.g2B()[1], b2, limbs);
    }

    /** The problem with G1 point at {@code off}, or {@code null} when it is valid. Allocates: not for hot loops. */
    String g1Problem(MemorySegment seg, long off) {
        return new G1Checker().problem(seg, off);
    }

    /** The problem with G2 point at {@code off}, or {@code null} when it is valid. */
    String g2Problem(MemorySegment seg, long off) {
        return new G2Checker().problem(seg, off);
    }

    /** The problem with the G1 point in {@code p[off..]} (Montgomery limbs), or {@code null} when it is valid. */
    String g1Problem(long[] p, int off) {
        return new G1Checker().problem(MemorySegment.ofArray(toBytes(p, off, 2 * limbs)), 0);
    }

    /** The problem with the G2 point in {@code p[off..]} (Montgomery limbs), or {@code null} when it is valid. */
    String g2Problem(long[] p, int off) {
        return new G2Checker().problem(MemorySegment.ofArray(toBytes(p, off, 4 * limbs)), 0);
    }

    private static byte[] toBytes(long[] p, int off, int n) {
        byte[] b = new byte[8 * n];
        MemorySegment s = MemorySegment.ofArray(b);
        SegmentLimbs.write(p, off, n, s, 0);
        return b;
    }

    /** Throws naming {@code what} and the index of the first bad point of a section of {@code count} points. */
    void requireValid(MemorySegment seg, long count, boolean g2, String file, int section, String what)
            throws FormatException {
        long pointBytes = g2 ? curve.g2Bytes() : curve.g1Bytes();
        long chunks = (count + CHUNK - 1) / CHUNK;
        long firstBad = LongStream.range(0, chunks).parallel().map(chunk -> {
            Checker checker = g2 ? new G2Checker() : new G1Checker();
            long end = Math.min(count, (chunk + 1) * CHUNK);
            for (long i = chunk * CHUNK; i < end; i++) {
                if (checker.problem(seg, i * pointBytes) != null) {
                    return i;
                }
            }
            return Long.MAX_VALUE;
        }).min().orElse(Long.MAX_VALUE);
        if (firstBad != Long.MAX_VALUE) {
            String problem = g2 ? g2Problem(seg, firstBad * pointBytes) : g1Problem(seg, firstBad * pointBytes);
            throw new FormatException(file, "section " + section + " (" + what + "): point " + firstBad + " "
                    + problem);
        }
    }

    private interface Checker {
        String problem(MemorySegment seg, long off);
    }

    /** Per-thread scratch for G1: x, y, lhs, rhs. */
    private final class G1Checker implements Checker {
        private final long[] t = new long[4 * limbs];

        @Override
        public String problem(MemorySegment seg, long off) {
            if (SegmentLimbs.allZero(seg, off, 16L * limbs)) {
                return null;
            }
            for (int k = 0; k < 2; k++) {
                if (!SegmentLimbs.lessThan(seg, off + 8L * k * limbs, modulus)) {
                    return (k == 0 ? "x" : "y") + " coordinate is not reduced (≥ q)";
                }
            }
            int x = 0;
            int y = limbs;
            int lhs = 2 * limbs;
            int rhs = 3 * limbs;
            SegmentLimbs.read(seg, off, 2 * limbs, t, 0);
            fq.sqr(t, y, t, lhs);
            fq.sqr(t, x, t, rhs);
            fq.mul(t, rhs, t, x, t, rhs);
            fq.add(t, rhs, b1, 0, t, rhs);
            return fq.equal(t, lhs, t, rhs) ? null : "is not on the curve";
        }
    }

    /** Per-thread scratch for G2 (the 𝔽q² arithmetic has its own scratch, hence one per thread). */
    private final class G2Checker implements Checker {
        private final QuadraticField fq2 = new QuadraticField(fq);
        private final long[] t = new long[8 * limbs];

        @Override
        public String problem(MemorySegment seg, long off) {
            if (SegmentLimbs.allZero(seg, off, 32L * limbs)) {
                return null;
            }
            String[] names = {"x.c0", "x.c1", "y.c0", "y.c1"};
            for (int k = 0; k < 4; k++) {
                if (!SegmentLimbs.lessThan(seg, off + 8L * k * limbs, modulus)) {
                    return names[k] + " coordinate is not reduced (≥ q)";
                }
            }
            int w = 2 * limbs;
            int x = 0;
            int y = w;
            int lhs = 2 * w;
            int rhs = 3 * w;
            SegmentLimbs.read(seg, off, 4 * limbs, t, 0);
            fq2.sqr(t, y, t, lhs);
            fq2.sqr(t, x, t, rhs);
            fq2.mul(t, rhs, t, x, t, rhs);
            fq2.add(t, rhs, b2, 0, t, rhs);
            return fq2.equal(t, lhs, t, rhs) ? null : "is not on the twist curve";
        }
    }
}

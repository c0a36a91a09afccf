package io.proofline.snark.format;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.curve.InvalidPointException;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.SnarkCurve;

import java.lang.foreign.MemorySegment;
import java.util.stream.LongStream;

/**
 * Checks affine points once, when they are loaded: every coordinate reduced below q, every point on its curve and
 * in the order-r subgroup ({@link CurveOps#check}: the curves' endomorphism tests, free on BN254 G1), the point at
 * infinity (all zeros) accepted. Large sections are checked in parallel chunks, one {@link CurveOps} (it has
 * scratch) per chunk; the first bad point (lowest index) is reported.
 */
final class PointValidation {

    /** Points per parallel task: large enough to amortise the task, small enough to spread 2^20 points. */
    private static final int CHUNK = 1 << 11;

    private final SnarkCurve curve;
    private final long[] modulus;
    private final boolean subgroup;

    PointValidation(SnarkCurve curve) {
        this(curve, PointCheck.SUBGROUP);
    }

    PointValidation(SnarkCurve curve, PointCheck check) {
        this.curve = curve;
        this.modulus = curve.fq().modulusLimbs();
        this.subgroup = check == PointCheck.SUBGROUP;
    }

    /** The problem with the G1 point in {@code p[off..]} (Montgomery limbs), or {@code null} when it is valid. */
    String g1Problem(long[] p, int off) {
        return new Checker(curve.g1()).problem(p, off);
    }

    /** The problem with the G2 point in {@code p[off..]} (Montgomery limbs), or {@code null} when it is valid. */
    String g2Problem(long[] p, int off) {
        return new Checker(curve.g2()).problem(p, off);
    }

    /** The problem with the point at byte {@code off} of {@code seg}, or {@code null}. */
    String problem(MemorySegment seg, long off, boolean g2) {
        return new Checker(g2 ? curve.g2() : curve.g1()).problem(seg, off);
    }

    /** Throws naming {@code what} and the index of the first bad point of a section of {@code count} points. */
    void requireValid(MemorySegment seg, long count, boolean g2, String file, int section, String what)
            throws FormatException {
        CurveGroup group = g2 ? curve.g2() : curve.g1();
        long pointBytes = group.affineBytes();
        long chunks = (count + CHUNK - 1) / CHUNK;
        LongStream tasks = LongStream.range(0, chunks);
        long firstBad = (SegmentLimbs.isShared(seg) ? tasks.parallel() : tasks).map(chunk -> {
            Checker checker = new Checker(group);
            long end = Math.min(count, (chunk + 1) * CHUNK);
            for (long i = chunk * CHUNK; i < end; i++) {
                if (checker.problem(seg, i * pointBytes) != null) {
                    return i;
                }
            }
            return Long.MAX_VALUE;
        }).min().orElse(Long.MAX_VALUE);
        if (firstBad != Long.MAX_VALUE) {
            throw new FormatException(file, "section " + section + " (" + what + "): point " + firstBad + " "
                    + problem(seg, firstBad * pointBytes, g2));
        }
    }

    /** One thread's checker: the curve arithmetic and a scratch point. */
    private final class Checker {
        private final CurveGroup group;
        private final CurveOps ops;
        private final long[] point;

        Checker(CurveGroup group) {
            this.group = group;
            this.ops = group.newOps();
            this.point = new long[group.affineWidth()];
        }

        String problem(MemorySegment seg, long off) {
            int coordinates = point.length / modulus.length;
            for (int k = 0; k < coordinates; k++) {
                if (!SegmentLimbs.lessThan(seg, off + 8L * k * modulus.length, modulus)) {
                    return coordinateName(k) + " coordinate is not reduced (≥ q)";
                }
            }
            SegmentLimbs.read(seg, off, point.length, point, 0);
            return curveProblem();
        }

        String problem(long[] p, int off) {
            int coordinates = point.length / modulus.length;
            for (int k = 0; k < coordinates; k++) {
                if (!lessThan(p, off + k * modulus.length)) {
                    return coordinateName(k) + " coordinate is not reduced (≥ q)";
                }
            }
            System.arraycopy(p, off, point, 0, point.length);
            return curveProblem();
        }

        private String curveProblem() {
            InvalidPointException.Reason reason = ops.check(point, 0, subgroup);
            if (reason == null) {
                return null;
            }
            return switch (reason) {
                case NOT_ON_CURVE -> "is not on the curve of " + group.name();
                case NOT_IN_SUBGROUP -> "is on the curve but not in the prime-order subgroup of " + group.name();
                default -> "is invalid (" + reason + ")";
            };
        }

        private boolean lessThan(long[] p, int off) {
            for (int i = modulus.length - 1; i >= 0; i--) {
                if (p[off + i] != modulus[i]) {
                    return Long.compareUnsigned(p[off + i], modulus[i]) < 0;
                }
            }
            return false;
        }

        private String coordinateName(int k) {
            return group.overFp2() ? new String[] {"x.c0", "x.c1", "y.c0", "y.c1"}[k] : (k == 0 ? "x" : "y");
        }
    }
}

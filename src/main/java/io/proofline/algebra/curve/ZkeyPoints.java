package io.proofline.algebra.curve;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.MemorySegment;

/**
 * Points in snarkjs's {@code .zkey} encoding: affine x‖y, each 𝔽p element as little-endian Montgomery limbs
 * (R = 2^(64·limbs), so the bytes are the in-memory {@code long[]} form), G2 as x.c0‖x.c1‖y.c0‖y.c1, all zeros for
 * infinity. {@link CurveGroup#affineBytes()} bytes per point.
 */
public final class ZkeyPoints {

    private ZkeyPoints() {
    }

    /**
     * Reads the point at byte {@code offset} into {@code out} and validates it (every coordinate reduced, on the
     * curve, and in the subgroup when {@code subgroup}). Throws {@link InvalidPointException}.
     */
    public static void read(CurveOps ops, MemorySegment seg, long offset, long[] out, int oo, boolean subgroup) {
        CurveGroup g = ops.group();
        if (offset < 0 || offset + g.affineBytes() > seg.byteSize()) {
            throw new InvalidPointException(InvalidPointException.Reason.BAD_LENGTH,
                    g.name() + " zkey point at byte " + offset + ": needs " + g.affineBytes() + " bytes, segment has "
                            + seg.byteSize());
        }
        InvalidPointException.Reason reason = readUnchecked(ops, seg, offset, out, oo, subgroup);
        if (reason != null) {
            throw new InvalidPointException(reason, g.name() + " zkey point at byte " + offset + ": " + ops.describe(reason));
        }
    }

    /** Reads and checks; returns null when valid, else the reason (no exception: used by bulk validation). */
    static InvalidPointException.Reason readUnchecked(CurveOps ops, MemorySegment seg, long offset, long[] out, int oo,
                                                      boolean subgroup) {
        CurveGroup g = ops.group();
        int longs = g.affineWidth();
        for (int i = 0; i < longs; i++) {
            out[oo + i] = seg.get(Msm.LIMB, offset + 8L * i);
        }
        if (!coordinatesReduced(g, out, oo)) {
            return InvalidPointException.Reason.NOT_REDUCED;
        }
        return ops.check(out, oo, subgroup);
    }

    static boolean coordinatesReduced(CurveGroup g, long[] p, int po) {
        PrimeField fp = g.baseField();
        int n = fp.limbs();
        for (int c = 0; c < g.affineWidth(); c += n) {
            if (!fp.isReduced(p, po + c)) {
                return false;
            }
        }
        return true;
    }

    /** Writes an affine point at byte {@code offset}. */
    public static void write(CurveGroup g, long[] p, int po, MemorySegment seg, long offset) {
        for (int i = 0; i < g.affineWidth(); i++) {
            seg.set(Msm.LIMB, offset + 8L * i, p[po + i]);
        }
    }

    /** The {@link CurveGroup#affineBytes()} bytes of a point. */
    public static byte[] encode(CurveGroup g, long[] p) {
        byte[] out = new byte[g.affineBytes()];
        write(g, p, 0, MemorySegment.ofArray(out), 0);
        return out;
    }

    /** Decodes and fully validates (subgroup included) one point from {@code bytes} at {@code off}. */
    public static long[] decode(CurveGroup g, byte[] bytes, int off) {
        long[] p = new long[g.affineWidth()];
        read(g.newOps(), MemorySegment.ofArray(bytes), off, p, 0, true);
        return p;
    }
}

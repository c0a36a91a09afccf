#!/usr/bin/env python3
"""Generates io/proofline/algebra/field/LaneMontgomery.java: Montgomery multiplication of many independent 4-limb
field elements at once, one element per SIMD lane, through the JDK Vector API (issue #3).

Why this shape: the Vector API has no 64x64->128 multiply, so an element is held as 9 limbs of 29 bits, one long
lane each, and every limb product is a lanewise long multiply of two values below 2^32 (which C2 can compile to
vpmuludq when it can see that the upper halves are zero, hence the explicit masks; the --plain variant leaves them
out so the difference can be measured). 29-bit limbs leave headroom: a column collects at most 18 products below
2^58, so the operand-scanning loop carries only one limb per step (t0 >>> 29 into t1) and normalises once at the end.
Straight-line code on locals, not a loop over a scratch array: vectors stored in an array are boxed.

Run: python3 scripts/gen-lane-montgomery.py > src/main/java/io/proofline/algebra/field/LaneMontgomery.java
"""
import sys

N = 9       # limbs
W = 29      # bits per limb
PLAIN = "--plain" in sys.argv   # no 32-bit operand masks (for measuring what C2 does without them)


def lo32(expr):
    return expr if PLAIN else f"{expr}.and(LO32)"


def mul_body():
    o = []
    ind = "        "
    for j in range(N):
        o.append(f"{ind}LongVector b{j} = {lo32(f'LongVector.fromArray(SPECIES, b, {j} * stride + be)')};")
    zero = [True] * N
    for i in range(N):
        o.append(f"{ind}ai = {lo32(f'LongVector.fromArray(SPECIES, a, {i} * stride + ae)')};")
        for j in range(N):
            if zero[j]:
                o.append(f"{ind}t{j} = ai.mul(b{j});")
                zero[j] = False
            else:
                o.append(f"{ind}t{j} = t{j}.add(ai.mul(b{j}));")
        # m = t0 · (−p⁻¹) mod 2^29; only the low 32 bits of t0 matter. The shift pair clears bits 29..63 in a form
        # (unsigned shift right by 35 ≥ 32) that tells C2 the upper half is zero.
        if PLAIN:
            o.append(f"{ind}m = t0.mul(PINV).and(MASK);")
        else:
            o.append(f"{ind}m = t0.and(LO32).mul(PINV).lanewise(VectorOperators.LSHL, 35).lanewise(VectorOperators.LSHR, 35);")
        o.append(f"{ind}c = t0.add(m.mul(P0)).lanewise(VectorOperators.LSHR, {W});")
        # divide by 2^29: limb j+1 becomes limb j
        for j in range(1, N):
            src = f"t{j}.add(m.mul(P{j}))"
            if j == 1:
                src += ".add(c)"
            o.append(f"{ind}t{j - 1} = {src};")
        zero[N - 1] = True
    o.append(f"{ind}// carry-normalise into 29-bit limbs; the value is below 2^259, so nothing leaves limb 8")
    # (the last step's shift left limb 8 empty: it is only the carry out of limb 7)
    for j in range(N - 2):
        o.append(f"{ind}t{j + 1} = t{j + 1}.add(t{j}.lanewise(VectorOperators.LSHR, {W}));")
        o.append(f"{ind}t{j}.and(MASK).intoArray(r, {j} * stride + re);")
    o.append(f"{ind}t{N - 2}.and(MASK).intoArray(r, {N - 2} * stride + re);")
    o.append(f"{ind}t{N - 2}.lanewise(VectorOperators.LSHR, {W}).intoArray(r, {N - 1} * stride + re);")
    return "\n".join(o)


def load_body():
    ind = "            "
    return "\n".join(f"{ind}LongVector v{k} = LongVector.fromArray(SPECIES, src, {k} * stride + e);" for k in range(N))


def divide_body():
    """v ← (v + k·p) / 2^5: add k·p limbwise, carry-normalise, shift the limbs right by 5 bits."""
    o = []
    ind = "            "
    o.append(f"{ind}LongVector carry = LongVector.zero(SPECIES), x;")
    for k in range(N):
        o.append(f"{ind}x = v{k}.add(k.mul(P29_{k})).add(carry); carry = x.lanewise(VectorOperators.LSHR, {W}); v{k} = x.and(mask);")
    o.append(f"{ind}// the value is below 2^259 + 2^5·p < 2^261: no carry leaves limb 8; the low 5 bits are zero")
    for k in range(N - 1):
        o.append(f"{ind}v{k} = v{k}.lanewise(VectorOperators.LSHR, SCALE_BITS).or(v{k + 1}.lanewise(VectorOperators.LSHL, {W} - SCALE_BITS).and(mask));")
    o.append(f"{ind}v{N - 1} = v{N - 1}.lanewise(VectorOperators.LSHR, SCALE_BITS);")
    return "\n".join(o)


def reduce_body():
    o = []
    ind = "            "
    o.append(f"{ind}LongVector cd = LongVector.zero(SPECIES), ce = cd, dk, ek;")
    for k in range(N):
        o.append(f"{ind}dk = v{k}.sub(P29_{k}).add(cd); cd = dk.lanewise(VectorOperators.ASHR, {W}); LongVector d{k} = dk.and(mask);")
        o.append(f"{ind}ek = v{k}.sub(TWO_P29_{k}).add(ce); ce = ek.lanewise(VectorOperators.ASHR, {W}); LongVector e{k} = ek.and(mask);")
    o.append(f"{ind}VectorMask<Long> atLeastP = cd.compare(VectorOperators.EQ, 0L);")
    o.append(f"{ind}VectorMask<Long> atLeast2P = ce.compare(VectorOperators.EQ, 0L);")
    for k in range(N):
        o.append(f"{ind}v{k} = v{k}.blend(d{k}, atLeastP).blend(e{k}, atLeast2P);")
    o.append(f"{ind}LongVector w0 = v0.or(v1.lanewise(VectorOperators.LSHL, 29)).or(v2.lanewise(VectorOperators.LSHL, 58));")
    o.append(f"{ind}LongVector w1 = v2.lanewise(VectorOperators.LSHR, 6).or(v3.lanewise(VectorOperators.LSHL, 23)).or(v4.lanewise(VectorOperators.LSHL, 52));")
    o.append(f"{ind}LongVector w2 = v4.lanewise(VectorOperators.LSHR, 12).or(v5.lanewise(VectorOperators.LSHL, 17)).or(v6.lanewise(VectorOperators.LSHL, 46));")
    o.append(f"{ind}LongVector w3 = v6.lanewise(VectorOperators.LSHR, 18).or(v7.lanewise(VectorOperators.LSHL, 11)).or(v8.lanewise(VectorOperators.LSHL, 40));")
    return "\n".join(o)


SCATTER = """            int n = count - g;
            long[] out = n >= LANES ? dst : partial;
            int o = n >= LANES ? dstOff + elementStride * g : 0;
            w0.intoArray(out, o, starts, 0);
            w1.intoArray(out, o + 1, starts, 0);
            w2.intoArray(out, o + 2, starts, 0);
            w3.intoArray(out, o + 3, starts, 0);
            for (int j = 0; n < LANES && j < n; j++) {
                System.arraycopy(partial, elementStride * j, dst, dstOff + elementStride * (g + j), 4);
            }"""


def add_body(sub):
    o = []
    ind = "        "
    for k in range(N):
        a = f"LongVector.fromArray(SPECIES, a, {k} * stride + ae)"
        b = f"LongVector.fromArray(SPECIES, b, {k} * stride + be)"
        if sub:
            o.append(f"{ind}x = {a}.sub({b}).add(seventeenP29[{k}]).add(c); c = x.lanewise(VectorOperators.ASHR, {W});")
        else:
            o.append(f"{ind}x = {a}.add({b}).add(c); c = x.lanewise(VectorOperators.LSHR, {W});")
        if k < N - 1:
            o.append(f"{ind}x.and(mask).intoArray(r, {k} * stride + re);")
        else:
            o.append(f"{ind}x.intoArray(r, {k} * stride + re);")
    return "\n".join(o)


def main():
    consts = f"        LongVector PINV = {lo32('LongVector.broadcast(SPECIES, pInv29)')};\n"
    consts += "\n".join(f"        LongVector P{j} = {lo32(f'LongVector.broadcast(SPECIES, p29[{j}])')};" for j in range(N))
    pconsts = "\n".join(f"        LongVector P29_{k} = LongVector.broadcast(SPECIES, p29[{k}]).and(LO32), TWO_P29_{k} = LongVector.broadcast(SPECIES, twoP29[{k}]);" for k in range(N))
    print(TEMPLATE.replace("@PCONSTS@", pconsts).replace("@REDUCE@", reduce_body()).replace("@LOAD@", load_body())
          .replace("@DIVIDE@", divide_body()).replace("@SCATTER@", SCATTER)
          .replace("@ADD@", add_body(False)).replace("@SUB@", add_body(True)).replace("@CONSTS@", consts).replace("@BODY@", mul_body())
          .replace("@TVARS@", ", ".join(f"t{j}" for j in range(N)))
          .replace("@VARIANT@", "plain (no operand masks)" if PLAIN else "masked operands"))


TEMPLATE = r'''// GENERATED by scripts/gen-lane-montgomery.py (@VARIANT@) — do not edit by hand; change the generator and re-run it.
package io.proofline.algebra.field;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.math.BigInteger;

/**
 * Montgomery multiplication of many independent elements of a 4-limb prime field at once, one element per long lane
 * of the JDK Vector API (issue #3). Elements are held in structure-of-arrays form: 9 limbs of 29 bits, limb k of
 * element e at index {@code k·stride + e}.
 *
 * <p><b>Representation.</b> The lane form of x is any value ≡ x·2^261 mod p (R' = 2^261 = 2^(29·9)) below 2^259,
 * not reduced further. For p &lt; 2^254 that set is closed under the multiplication, which computes a·b·R'⁻¹ by 9
 * operand-scanning steps of 29 bits and needs no final subtraction: for inputs below 2^259 the result is below
 * (2^518 + R'·p)/R' = 2^257 + p &lt; 2^259. Converting from the 64-bit-limb Montgomery form x·2^256 is therefore a bit
 * shift (x·2^256·2^5 &lt; 32p &lt; 2^259); converting back divides by 2^5 with one 5-bit Montgomery step and reduces.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class LaneMontgomery {

    /** The widest long species of this machine: 8 lanes with AVX-512. */
    public static final VectorSpecies<Long> SPECIES = LongVector.SPECIES_PREFERRED;
    /** Elements multiplied per vector operation. */
    public static final int LANES = SPECIES.length();
    /** Limbs per element in lane form. */
    public static final int LIMBS = 9;
    /** Bits per limb in lane form. */
    public static final int LIMB_BITS = 29;

    private static final long LIMB_MASK = (1L << LIMB_BITS) - 1;
    /** Lane form is x·2^261; the 64-bit form is x·2^256: they differ by this many bits. */
    private static final int SCALE_BITS = LIMB_BITS * LIMBS - 256;

    private final PrimeField field;
    private final long[] p;
    /** 2p in 4 limbs (below 2^255). */
    private final long[] twoP;
    /** p in 29-bit limbs. */
    private final long[] p29;
    /** 2p in 29-bit limbs. */
    private final long[] twoP29;
    /** 17p in 29-bit limbs (the offset of {@link #subGroup}). */
    private final long[] seventeenP29;
    /** −p⁻¹ mod 2^29. */
    private final long pInv29;

    public LaneMontgomery(PrimeField field) {
        if (field.limbs() != 4 || field.modulus().bitLength() != 254) {
            // below 2^254 for the bounds of mul, above 2^253 so that fromLanes needs only two subtractions
            throw new IllegalArgumentException(field.name() + ": lane Montgomery needs a 254-bit modulus");
        }
        this.field = field;
        this.p = field.modulusLimbs();
        this.twoP = PrimeField.toLimbs(field.modulus().shiftLeft(1), 4);
        this.p29 = new long[LIMBS];
        BigInteger m = field.modulus();
        for (int k = 0; k < LIMBS; k++) {
            p29[k] = m.shiftRight(LIMB_BITS * k).longValue() & LIMB_MASK;
        }
        this.twoP29 = new long[LIMBS];
        for (int k = 0; k < LIMBS; k++) {
            twoP29[k] = m.shiftLeft(1).shiftRight(LIMB_BITS * k).longValue() & LIMB_MASK;
        }
        this.seventeenP29 = new long[LIMBS];
        for (int k = 0; k < LIMBS; k++) {
            seventeenP29[k] = m.multiply(BigInteger.valueOf(17)).shiftRight(LIMB_BITS * k).longValue() & LIMB_MASK;
        }
        this.pInv29 = field.montgomeryInverse() & LIMB_MASK;
    }

    public PrimeField field() {
        return field;
    }

    /**
     * r = a·b·R'⁻¹ for elements [from, from + count) of the lane arrays; count is a multiple of {@link #LANES}. Inputs
     * in lane form (below 2^259, normalised limbs), result likewise. r may alias a or b.
     */
    public void mul(long[] a, long[] b, long[] r, int stride, int from, int count) {
        if (count % LANES != 0) {
            throw new IllegalArgumentException("count " + count + " is not a multiple of " + LANES);
        }
        for (int e = from; e < from + count; e += LANES) {
            mulGroup(a, e, b, e, r, e, stride);
        }
    }

    /**
     * One vector's worth: r = a·b·R'⁻¹ for the {@link #LANES} elements at lane indices {@code ae}, {@code be},
     * {@code re} (same stride). Lane form times lane form gives lane form; lane form times plain lane form gives
     * plain lane form ({@link #toPlainLanes}). Every input is read before r is written, so r may overlap a or b.
     */
    public void mulGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride) {
        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);
        LongVector MASK = LongVector.broadcast(SPECIES, LIMB_MASK);
@CONSTS@
        LongVector ai, m, c, @TVARS@;
@BODY@
    }

    /** Lane indices of the first words of LANES consecutive elements 4 longs apart (𝔽q) or 8 (a coefficient of 𝔽q²). */
    private static final int[] STARTS_4 = starts(4), STARTS_8 = starts(8);

    private static int[] starts(int elementStride) {
        int[] r = new int[LANES];
        for (int i = 0; i < LANES; i++) {
            r[i] = elementStride * i;
        }
        return r;
    }

    private static int[] startsFor(int elementStride) {
        return elementStride == 4 ? STARTS_4 : elementStride == 8 ? STARTS_8 : starts(elementStride);
    }

    /**
     * Converts {@code count} elements in 64-bit Montgomery form (4 limbs each, from {@code src[srcOff]}) to lane
     * form at lane index {@code to} onwards.
     */
    public void toLanes(long[] src, int srcOff, int count, long[] dst, int stride, int to) {
        toLanes(src, srcOff, 4, count, dst, stride, to);
    }

    /**
     * As {@link #toLanes(long[], int, int, long[], int, int)} for elements {@code elementStride} longs apart: 8 with
     * {@code srcOff} at c0 or c1 converts one coefficient of 𝔽q² elements.
     */
    public void toLanes(long[] src, int srcOff, int elementStride, int count, long[] dst, int stride, int to) {
        int[] starts = startsFor(elementStride);
        int whole = count - count % LANES;
        for (int g = 0; g < whole; g += LANES) {
            splitGroup(src, srcOff + elementStride * g, starts, SCALE_BITS, dst, stride, to + g);
        }
        for (int i = whole; i < count; i++) {
            int s = srcOff + elementStride * i;
            long x0 = src[s], x1 = src[s + 1], x2 = src[s + 2], x3 = src[s + 3];
            // y = x·2^5 in five words; limb k is bits [29k, 29k + 29) of y
            long y0 = x0 << SCALE_BITS;
            long y1 = (x1 << SCALE_BITS) | (x0 >>> (64 - SCALE_BITS));
            long y2 = (x2 << SCALE_BITS) | (x1 >>> (64 - SCALE_BITS));
            long y3 = (x3 << SCALE_BITS) | (x2 >>> (64 - SCALE_BITS));
            long y4 = x3 >>> (64 - SCALE_BITS);
            split(y0, y1, y2, y3, y4, dst, stride, to + i);
        }
    }

    /**
     * {@link #split} for LANES elements whose first words are at {@code src[s + starts[i]]}, of x·2^shift (shift 0
     * or {@link #SCALE_BITS}): the words are gathered into vectors (one gather per word), the limbs stored as vectors.
     */
    private static void splitGroup(long[] src, int s, int[] starts, int shift, long[] dst, int stride, int d) {
        LongVector x0 = LongVector.fromArray(SPECIES, src, s, starts, 0);
        LongVector x1 = LongVector.fromArray(SPECIES, src, s + 1, starts, 0);
        LongVector x2 = LongVector.fromArray(SPECIES, src, s + 2, starts, 0);
        LongVector x3 = LongVector.fromArray(SPECIES, src, s + 3, starts, 0);
        LongVector y0 = x0, y1 = x1, y2 = x2, y3 = x3, y4 = LongVector.zero(SPECIES);
        if (shift != 0) {
            y0 = x0.lanewise(VectorOperators.LSHL, shift);
            y1 = x1.lanewise(VectorOperators.LSHL, shift).or(x0.lanewise(VectorOperators.LSHR, 64 - shift));
            y2 = x2.lanewise(VectorOperators.LSHL, shift).or(x1.lanewise(VectorOperators.LSHR, 64 - shift));
            y3 = x3.lanewise(VectorOperators.LSHL, shift).or(x2.lanewise(VectorOperators.LSHR, 64 - shift));
            y4 = x3.lanewise(VectorOperators.LSHR, 64 - shift);
        }
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        y0.and(mask).intoArray(dst, d);
        y0.lanewise(VectorOperators.LSHR, 29).and(mask).intoArray(dst, stride + d);
        y0.lanewise(VectorOperators.LSHR, 58).or(y1.lanewise(VectorOperators.LSHL, 6)).and(mask)
                .intoArray(dst, 2 * stride + d);
        y1.lanewise(VectorOperators.LSHR, 23).and(mask).intoArray(dst, 3 * stride + d);
        y1.lanewise(VectorOperators.LSHR, 52).or(y2.lanewise(VectorOperators.LSHL, 12)).and(mask)
                .intoArray(dst, 4 * stride + d);
        y2.lanewise(VectorOperators.LSHR, 17).and(mask).intoArray(dst, 5 * stride + d);
        y2.lanewise(VectorOperators.LSHR, 46).or(y3.lanewise(VectorOperators.LSHL, 18)).and(mask)
                .intoArray(dst, 6 * stride + d);
        y3.lanewise(VectorOperators.LSHR, 11).and(mask).intoArray(dst, 7 * stride + d);
        y3.lanewise(VectorOperators.LSHR, 40).or(y4.lanewise(VectorOperators.LSHL, 24)).and(mask)
                .intoArray(dst, 8 * stride + d);
    }

    /**
     * Converts {@code count} lane-form elements from lane index {@code from} back to reduced 64-bit Montgomery form at
     * {@code dst[dstOff]}: v·2^-5 mod p, by v + k·p with k = −v·p⁻¹ mod 2^5, exactly divisible by 2^5, then a
     * reduction from below 3p ((2^259 + 31p)/32 &lt; 2^254 + p &lt; 3p for p &gt; 2^253). Reads whole vectors (see
     * {@link #fromPlainLanes}).
     */
    public void fromLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff) {
        fromLanes(src, stride, from, count, dst, dstOff, 4);
    }

    /** As {@link #fromLanes(long[], int, int, int, long[], int)}, writing elements {@code elementStride} longs apart. */
    public void fromLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff, int elementStride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);
        LongVector PINV = LongVector.broadcast(SPECIES, pInv29).and(LO32);
@PCONSTS@
        int[] starts = startsFor(elementStride);
        long[] partial = new long[elementStride * LANES];
        for (int g = 0; g < count; g += LANES) {
            int e = from + g;
@LOAD@
            // k = −v·p⁻¹ mod 2^5 (the shift pair keeps 5 bits in a form that tells C2 the upper half is zero)
            LongVector k = v0.and(LO32).mul(PINV).lanewise(VectorOperators.LSHL, 64 - SCALE_BITS)
                    .lanewise(VectorOperators.LSHR, 64 - SCALE_BITS);
@DIVIDE@
@REDUCE@
@SCATTER@
        }
    }

    /**
     * {@link #fromLanes(long[], int, int, int, long[], int, int)} in scalar code, for a handful of elements (a batch's
     * chain totals): called once per batch, the vector version would run interpreted (allocating every vector) for
     * thousands of calls before C2 compiles it, which cost ~100 ms per MSM in the first MSMs of a JVM.
     */
    public void fromLanesScalar(long[] src, int stride, int from, int count, long[] dst, int dstOff, int elementStride) {
        long p0 = p[0], p1 = p[1], p2 = p[2], p3 = p[3];
        long inv = field.montgomeryInverse();
        for (int i = 0; i < count; i++) {
            int s = from + i;
            long l0 = src[s], l1 = src[stride + s], l2 = src[2 * stride + s], l3 = src[3 * stride + s];
            long l4 = src[4 * stride + s], l5 = src[5 * stride + s], l6 = src[6 * stride + s];
            long l7 = src[7 * stride + s], l8 = src[8 * stride + s];
            long v0 = l0 | (l1 << 29) | (l2 << 58);
            long v1 = (l2 >>> 6) | (l3 << 23) | (l4 << 52);
            long v2 = (l4 >>> 12) | (l5 << 17) | (l6 << 46);
            long v3 = (l6 >>> 18) | (l7 << 11) | (l8 << 40);
            long v4 = l8 >>> 24;
            long k = (v0 * inv) & ((1L << SCALE_BITS) - 1);
            // u = v + k·p (k < 32, so each k·p_j fits 69 bits: low word plus a small high word)
            long lo, hi, u, c;
            lo = k * p0; hi = Math.unsignedMultiplyHigh(k, p0); u = v0 + lo; c = hi + Montgomery.carry(u, lo); long u0 = u;
            lo = k * p1; hi = Math.unsignedMultiplyHigh(k, p1); u = v1 + lo; hi += Montgomery.carry(u, lo); lo = u; u = lo + c; hi += Montgomery.carry(u, lo); c = hi; long u1 = u;
            lo = k * p2; hi = Math.unsignedMultiplyHigh(k, p2); u = v2 + lo; hi += Montgomery.carry(u, lo); lo = u; u = lo + c; hi += Montgomery.carry(u, lo); c = hi; long u2 = u;
            lo = k * p3; hi = Math.unsignedMultiplyHigh(k, p3); u = v3 + lo; hi += Montgomery.carry(u, lo); lo = u; u = lo + c; hi += Montgomery.carry(u, lo); c = hi; long u3 = u;
            long u4 = v4 + c;
            long w0 = (u0 >>> SCALE_BITS) | (u1 << (64 - SCALE_BITS));
            long w1 = (u1 >>> SCALE_BITS) | (u2 << (64 - SCALE_BITS));
            long w2 = (u2 >>> SCALE_BITS) | (u3 << (64 - SCALE_BITS));
            long w3 = (u3 >>> SCALE_BITS) | (u4 << (64 - SCALE_BITS));
            int d = dstOff + elementStride * i;
            reduceBelow3p(w0, w1, w2, w3, dst, d);
        }
    }

    /**
     * Converts {@code count} elements in 64-bit Montgomery form to <i>plain</i> lane form: the same integer x·2^256,
     * only split into 29-bit limbs. A plain operand makes {@link #mulGroup} return a plain result (x·2^261 · y·2^256
     * · 2^-261 = xy·2^256), which {@link #fromPlainLanes} converts back without the 5-bit division.
     */
    public void toPlainLanes(long[] src, int srcOff, int count, long[] dst, int stride, int to) {
        int whole = count - count % LANES;
        for (int g = 0; g < whole; g += LANES) {
            splitGroup(src, srcOff + 4 * g, STARTS_4, 0, dst, stride, to + g);
        }
        for (int i = whole; i < count; i++) {
            int s = srcOff + 4 * i;
            split(src[s], src[s + 1], src[s + 2], src[s + 3], 0, dst, stride, to + i);
        }
    }

    /**
     * Converts {@code count} plain lane-form elements whose value is below 3p (a product of a lane-form value below
     * 2^260 and a plain one below 2^255: below 2^254 + p) back to reduced 64-bit Montgomery form. Reads whole
     * vectors: the lane arrays must extend to the next multiple of {@link #LANES} after {@code from + count}.
     */
    public void fromPlainLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff) {
        // Whole vectors: v − p and v − 2p side by side on the 29-bit limbs (signed limb differences, the carry an
        // arithmetic shift), the smallest non-negative of v, v − p, v − 2p chosen by lane masks, packed into
        // 64-bit words and scattered to the elements; a partial last vector goes through a small buffer.
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);
@PCONSTS@
        int elementStride = 4;
        int[] starts = STARTS_4;
        long[] partial = new long[4 * LANES];
        for (int g = 0; g < count; g += LANES) {
            int e = from + g;
@LOAD@
@REDUCE@
@SCATTER@
        }
    }

    /** r = a + b for one vector of lane-form values (normalised limbs); the caller keeps the sum below 2^259. */
    public void addGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector c = LongVector.zero(SPECIES), x;
@ADD@
    }

    /**
     * r = a − b + 17p for one vector of lane-form values: ≡ a − b, non-negative for b below 17p (every
     * {@link #mulGroup} result: 2^257 + p &lt; 17p for p &gt; 2^253), and below 2^259 when a is a product too.
     */
    public void subGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector c = LongVector.zero(SPECIES), x;
@SUB@
    }

    /**
     * r = a·2^5 for one vector of elements below 2^256: plain lane form to lane form of the same element, by
     * shifting limbs (the result, below 2^261, is a valid {@link #mulGroup} operand when the other one is plain).
     */
    public void scaleGroup(long[] a, int ae, long[] r, int re, int stride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector below = LongVector.zero(SPECIES);
        for (int k = 0; k < LIMBS; k++) {
            LongVector limb = LongVector.fromArray(SPECIES, a, k * stride + ae);
            limb.lanewise(VectorOperators.LSHL, SCALE_BITS).and(mask).or(below).intoArray(r, k * stride + re);
            below = limb.lanewise(VectorOperators.LSHR, LIMB_BITS - SCALE_BITS);
        }
    }

    /** Writes the 9 limbs of bits [29k, 29k + 29) of the five-word integer y to dst (lane index d). */
    private static void split(long y0, long y1, long y2, long y3, long y4, long[] dst, int stride, int d) {
        dst[d] = y0 & LIMB_MASK;
        dst[stride + d] = (y0 >>> 29) & LIMB_MASK;
        dst[2 * stride + d] = ((y0 >>> 58) | (y1 << 6)) & LIMB_MASK;
        dst[3 * stride + d] = (y1 >>> 23) & LIMB_MASK;
        dst[4 * stride + d] = ((y1 >>> 52) | (y2 << 12)) & LIMB_MASK;
        dst[5 * stride + d] = (y2 >>> 17) & LIMB_MASK;
        dst[6 * stride + d] = ((y2 >>> 46) | (y3 << 18)) & LIMB_MASK;
        dst[7 * stride + d] = (y3 >>> 11) & LIMB_MASK;
        dst[8 * stride + d] = ((y3 >>> 40) | (y4 << 24)) & LIMB_MASK;
    }

    /**
     * r = w mod p for w &lt; 3p: w − p and w − 2p computed side by side (independent borrow chains, no store and
     * reload between two conditional subtractions), the smallest non-negative one kept.
     */
    private void reduceBelow3p(long w0, long w1, long w2, long w3, long[] r, int ro) {
        long d0 = w0 - p[0]; long br = Montgomery.borrowOut(w0, p[0], d0);
        long d1 = w1 - p[1] - br; br = Montgomery.borrowOut(w1, p[1], d1);
        long d2 = w2 - p[2] - br; br = Montgomery.borrowOut(w2, p[2], d2);
        long d3 = w3 - p[3] - br; br = Montgomery.borrowOut(w3, p[3], d3);
        long e0 = w0 - twoP[0]; long bt = Montgomery.borrowOut(w0, twoP[0], e0);
        long e1 = w1 - twoP[1] - bt; bt = Montgomery.borrowOut(w1, twoP[1], e1);
        long e2 = w2 - twoP[2] - bt; bt = Montgomery.borrowOut(w2, twoP[2], e2);
        long e3 = w3 - twoP[3] - bt; bt = Montgomery.borrowOut(w3, twoP[3], e3);
        long keepW = -br;                // w < p
        long keepD = -bt & ~keepW;       // p ≤ w < 2p
        long keepE = ~(keepW | keepD);   // 2p ≤ w
        r[ro] = (w0 & keepW) | (d0 & keepD) | (e0 & keepE);
        r[ro + 1] = (w1 & keepW) | (d1 & keepD) | (e1 & keepE);
        r[ro + 2] = (w2 & keepW) | (d2 & keepD) | (e2 & keepE);
        r[ro + 3] = (w3 & keepW) | (d3 & keepD) | (e3 & keepE);
    }
}'''

if __name__ == "__main__":
    main()

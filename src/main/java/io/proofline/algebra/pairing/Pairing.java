package io.proofline.algebra.pairing;

import io.proofline.algebra.tower.Fq12;

/**
 * The optimal ate pairing e: G1 × G2 → GT ⊂ 𝔽p¹²* of a {@link PairingCurve}: a {@link MillerLoop} followed by the
 * {@link FinalExponentiation}. The value is the textbook reduced pairing raised to the fixed
 * {@link PairingCurve#exponentMultiplier()} (coprime to r; the same value ffjavascript/snarkjs compute), which changes
 * nothing for product checks and keeps bilinearity and non-degeneracy. Points are affine, flat, Montgomery form: G1 = x ‖ y (2·limbs longs), G2 = x ‖ y with
 * coordinates in 𝔽p² as c0 ‖ c1 (4·limbs longs); the point at infinity is all zeros and pairs to 1. Inputs must be
 * on the curve and in the order-r subgroups; checking that is the decoder's job (the pairing does not re-check).
 *
 * <p>Holds scratch: <b>not thread-safe</b>, one per thread. Apart from the returned arrays of the allocating
 * conveniences, pairing allocates nothing (the Miller loop workspace grows once to the largest batch).
 */
public final class Pairing {

    private final PairingCurve curve;
    private final Fq12 f12;
    private final MillerLoop millerLoop;
    private final FinalExponentiation finalExp;
    private final long[] f;

    public Pairing(PairingCurve curve) {
        this.curve = curve;
        this.f12 = new Fq12(curve.tower());
        this.millerLoop = new MillerLoop(curve, f12);
        this.finalExp = new FinalExponentiation(curve, f12);
        this.f = new long[f12.width()];
    }

    public PairingCurve curve() {
        return curve;
    }

    /** The target field's operations (same thread confinement as this object). */
    public Fq12 target() {
        return f12;
    }

    public FinalExponentiation finalExponentiation() {
        return finalExp;
    }

    /** Longs per G1 point (x ‖ y). */
    public int g1Width() {
        return 2 * curve.fq().limbs();
    }

    /** Longs per G2 point (x.c0 ‖ x.c1 ‖ y.c0 ‖ y.c1). */
    public int g2Width() {
        return 4 * curve.fq().limbs();
    }

    /** r = e(P, Q). */
    public void pair(long[] g1, int g1Off, long[] g2, int g2Off, long[] r, int ro) {
        millerLoop.run(g1, g1Off, g2, g2Off, 1, f, 0);
        finalExp.apply(f, 0, r, ro);
    }

    /** e(P, Q) as a new 𝔽p¹² element. */
    public long[] pair(long[] g1, int g1Off, long[] g2, int g2Off) {
        long[] r = new long[f12.width()];
        pair(g1, g1Off, g2, g2Off, r, 0);
        return r;
    }

    /** r = ∏ e(Pᵢ, Qᵢ) over {@code count} pairs laid out consecutively; one shared Miller loop and final exponentiation. */
    public void product(long[] g1s, int g1Off, long[] g2s, int g2Off, int count, long[] r, int ro) {
        millerLoop.run(g1s, g1Off, g2s, g2Off, count, f, 0);
        finalExp.apply(f, 0, r, ro);
    }

    /**
     * Whether ∏ e(Pᵢ, Qᵢ) = 1: the pairing-product check of Groth16 verification and of the EIP-197/EIP-2537
     * precompiles. {@code g1s} holds {@code count} G1 points, {@code g2s} as many G2 points; zero pairs give true.
     */
    public boolean productIsOne(long[] g1s, long[] g2s, int count) {
        product(g1s, 0, g2s, 0, count, f, 0);
        return f12.isOne(f, 0);
    }

    /** The Miller loop alone (r is not yet a pairing value: it still needs {@link #finalExponentiation()}). */
    public void millerLoop(long[] g1s, int g1Off, long[] g2s, int g2Off, int count, long[] r, int ro) {
        millerLoop.run(g1s, g1Off, g2s, g2Off, count, r, ro);
    }
}

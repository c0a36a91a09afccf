package io.proofline.lab.gpu;

import io.proofline.gpu.GpuCurve;

import java.util.OptionalDouble;

/**
 * What a kernel could take on the H200 (DESIGN §8, docs/gpu-notes.md) and the published peer figures, so that each
 * benchmark row can say how far it is from both. All times in milliseconds.
 *
 * <p>MSM (DESIGN §8's model): Pippenger with c = log₂N − 4 and signed digits does {@code N·⌈b/c⌉ + ⌈b/c⌉·2^c} point
 * additions (b = 254 bits for BN254's r, 255 for BLS12-381's); an addition costs about 10 Fq multiplications with XYZZ
 * buckets and about 6 with batch-affine ones; the plain CIOS multiplication measured on the H200 runs at 37.9 G/s
 * (BN254 Fq) and 17.3 G/s (BLS12-381 Fq). This reproduces DESIGN's figures: BN254 2^20 4.7 / 2.8 ms, 2^24 61 / 37 ms;
 * BLS12-381 2^20 10.3 / 6.2 ms, 2^24 134 / 81 ms.
 *
 * <p>NTT (docs/gpu-notes.md): {@code N/2·log₂N} butterfly multiplications at the carry-chain ceiling of 57 G mul/s
 * (N = 8 limbs, both curves' Fr), or the bytes moved at 4.3 TB/s — ⌈log₂N / 10⌉ shared-memory passes (the first
 * also does the bit reversal), each reading and writing N·32 bytes — whichever is larger: 0.18 ms at 2^20.
 *
 * <p>Peers: ICICLE on an RTX 4090 (device-resident inputs, random scalars; DESIGN §8): G1 MSM 2^20 14.8 ms (BN254),
 * 24.7 ms (BLS12-381), NTT 2^20 0.37 ms. DESIGN gives no other sizes, so the other rows have no peer figure.
 */
public final class PerformanceBounds {

    /** Fq multiplications per bucket addition with XYZZ accumulators (madd-2008-s ≈ 8M + 2S). */
    static final double MULS_PER_ADD_XYZZ = 10;
    /** Fq multiplications per bucket addition with batch-affine accumulation (one shared inversion per batch). */
    static final double MULS_PER_ADD_BATCH_AFFINE = 6;
    /** Plain CIOS Montgomery multiplications per second measured on the H200 (DESIGN §8). */
    static final double BN254_FQ_MULS_PER_SECOND = 37.9e9;
    static final double BLS12_381_FQ_MULS_PER_SECOND = 17.3e9;
    /** 8-limb multiplications per second at the carry-chain ceiling (docs/gpu-notes.md, "The two numbers"). */
    static final double FR_MULS_PER_SECOND = 57e9;
    /** HBM3e copy rate measured on the H200 (docs/gpu-notes.md). */
    static final double BYTES_PER_SECOND = 4.3e12;
    /** Butterfly stages per shared-memory pass of the NTT (the kernels' nttMaxLogTile). */
    static final int NTT_STAGES_PER_PASS = 10;

    private PerformanceBounds() {
    }

    /** An MSM bound in ms: with batch-affine additions (the lower one) and with XYZZ buckets (what v1 builds on). */
    public record MsmBound(double batchAffineMs, double xyzzMs) {
    }

    /** DESIGN §8's MSM bound for {@code n} points (n need not be a power of two: c uses ⌈log₂n⌉). */
    public static MsmBound msm(GpuCurve curve, long n) {
        int log = 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1));
        int c = Math.max(1, log - 4);
        int bits = curve.fr().modulus().bitLength();
        long windows = (bits + c - 1) / c;
        double additions = (double) n * windows + (double) windows * Math.pow(2, c);
        double rate = curve == GpuCurve.BN254 ? BN254_FQ_MULS_PER_SECOND : BLS12_381_FQ_MULS_PER_SECOND;
        return new MsmBound(additions * MULS_PER_ADD_BATCH_AFFINE / rate * 1e3, additions * MULS_PER_ADD_XYZZ / rate * 1e3);
    }

    /** The NTT bound of a transform of 2^logN elements over Fr, in ms (the same for both curves: 8 limbs). */
    public static double ntt(int logN) {
        double n = Math.pow(2, logN);
        double arithmetic = n / 2 * logN / FR_MULS_PER_SECOND;
        int passes = (logN + NTT_STAGES_PER_PASS - 1) / NTT_STAGES_PER_PASS;
        double memory = passes * 2 * n * 32 / BYTES_PER_SECOND;
        return Math.max(arithmetic, memory) * 1e3;
    }

    /**
     * Prove start's kernels alone, in ms (batch-affine MSM bounds): ΣA and ΣB1 over m, ΣC over m − ℓ − 1, ΣH over N,
     * and six NTTs of N (H: three inverse, three forward). Uploads and the host's steps are not in it.
     */
    public static double proveStart(GpuCurve curve, long nVars, int nPublic, int logDomain) {
        long n = 1L << logDomain;
        return 2 * msm(curve, nVars).batchAffineMs() + msm(curve, nVars - nPublic - 1).batchAffineMs()
                + msm(curve, n).batchAffineMs() + 6 * ntt(logDomain);
    }

    /** ICICLE's RTX 4090 G1 MSM time (DESIGN §8), only at 2^20. */
    public static OptionalDouble icicleMsm(GpuCurve curve, long n) {
        if (n != 1L << 20) {
            return OptionalDouble.empty();
        }
        return OptionalDouble.of(curve == GpuCurve.BN254 ? 14.8 : 24.7);
    }

    /** ICICLE's RTX 4090 NTT time (DESIGN §8), only at 2^20. */
    public static OptionalDouble icicleNtt(int logN) {
        return logN == 20 ? OptionalDouble.of(0.37) : OptionalDouble.empty();
    }
}

package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import io.proofline.algebra.field.PrimeField;
import jcuda.driver.CUdeviceptr;

import java.math.BigInteger;

/**
 * NTT over a curve's Fr on the GPU for one domain of size N = 2^logN, with its twiddles resident on the device.
 * Roots follow snarkjs: ω_N = 5^((r−1)/N) (5 is a quadratic non-residue mod r on both curves), so
 * {@link #forward} evaluates a polynomial given by its coefficients at ω_N^0 .. ω_N^(N−1), natural order in and out.
 *
 * <p>A transform is ⌈logN / K⌉ launches of up to K butterfly stages in shared memory (K = the module's
 * {@code nttMaxLogTile}); the first also does the bit reversal, reading its tiles from bit-reversed positions. With
 * more than one launch that first one cannot write in place (other blocks still read what it would overwrite), so it
 * writes into a scratch buffer of N elements, the middle ones work in place there and the last writes back (ntt.cuh).
 * The inverse's last launch also multiplies by 1/N before its stores. Not thread-safe: one instance per worker.
 */
public final class GpuNtt implements AutoCloseable {

    /** The multiplicative generator snarkjs uses for roots of unity on bn128 and bls12381. */
    public static final long ROOT_GENERATOR = 5;

    /** The kernel's null scale: the pass stores its results unscaled. */
    private static final CUdeviceptr NO_SCALE = new CUdeviceptr();

    private final KernelModule module;
    private final GpuCurve curve;
    private final int logN;
    private final long n;
    private final DeviceBuffer twiddles;
    private final DeviceBuffer inverseTwiddles;
    /** Pass 0's output when there are several passes (its bit-reversed reads forbid in place: ntt.cuh); else null. */
    private final DeviceBuffer scratch;
    /** 1/N, one element: the inverse's last pass multiplies it in. */
    private final DeviceBuffer inverseScale;
    /** 1/N · ω_2N^i: prove start's shift onto the odd coset with the inverse's 1/N folded in. */
    private final ScaleTables cosetScale;

    public GpuNtt(KernelModule module, GpuCurve curve, int logN) {
        PrimeField fr = curve.fr();
        if (logN < 1 || logN > 30 || fr.modulus().subtract(BigInteger.ONE).getLowestSetBit() < logN + 1) {
            throw new IllegalArgumentException("unsupported NTT size 2^" + logN + " on " + curve);
        }
        this.module = module;
        this.curve = curve;
        this.logN = logN;
        this.n = 1L << logN;
        long[] omega = rootOfUnity(fr, logN);
        long[] omegaInverse = fr.inv(omega);
        this.twiddles = DeviceBuffer.of(powers(fr, fr.one(), omega, n / 2));
        this.inverseTwiddles = DeviceBuffer.of(powers(fr, fr.one(), omegaInverse, n / 2));
        this.scratch = passes(module.tunables()) > 1 ? DeviceBuffer.allocate(n * curve.frBytes()) : null;
        long[] nInverse = fr.inv(fr.fromLong(n));
        this.inverseScale = DeviceBuffer.of(nInverse);
        this.cosetScale = new ScaleTables(fr, logN, nInverse, rootOfUnity(fr, logN + 1));
    }

    /** ω with ω^(2^log) = 1 primitive: 5^((r−1)/2^log) in Montgomery form. */
    public static long[] rootOfUnity(PrimeField fr, int log) {
        BigInteger exponent = fr.modulus().subtract(BigInteger.ONE).shiftRight(log);
        return fr.pow(fr.fromLong(ROOT_GENERATOR), exponent);
    }

    public int logN() {
        return logN;
    }

    public long size() {
        return n;
    }

    /** Device bytes this instance holds: the twiddles, 1/N, the coset's tables and a multi-pass transform's scratch. */
    public long deviceBytes() {
        return twiddles.bytes() + inverseTwiddles.bytes() + inverseScale.bytes() + cosetScale.bytes()
                + (scratch == null ? 0 : scratch.bytes());
    }

    /** In place: coefficients → evaluations at ω_N^i. */
    public void forward(DeviceBuffer x, GpuStream stream) {
        transform(x, twiddles, null, stream);
    }

    /** In place: evaluations → coefficients (including the factor 1/N). */
    public void inverse(DeviceBuffer x, GpuStream stream) {
        transform(x, inverseTwiddles, inverseScale, stream);
    }

    /**
     * In place, snarkjs's H step for one of a, b, c (DESIGN §7): inverse transform, multiply coefficient i by
     * ω_2N^i (with 1/N folded in, so the inverse's last pass leaves it out), forward transform: the evaluations on
     * the odd coset ω_2N·⟨ω_N⟩.
     */
    public void toOddCoset(DeviceBuffer x, GpuStream stream) {
        transform(x, inverseTwiddles, null, stream);
        scale(x, cosetScale, stream);
        transform(x, twiddles, null, stream);
    }

    /** a ← a·b − c element-wise (a, b, c already on the odd coset): the h_j that the H MSM takes. */
    public void quotient(DeviceBuffer a, DeviceBuffer b, DeviceBuffer c, GpuStream stream) {
        int threads = module.tunables().elementwiseThreads();
        module.launch(curve.kernel("fr_h_from_abc"), KernelModule.blocksFor(n, threads), threads, stream, a, b, c, n);
    }

    /** The whole of DESIGN §7's H: the three coset transforms and the quotient, left in {@code a}. */
    public void computeH(DeviceBuffer a, DeviceBuffer b, DeviceBuffer c, GpuStream stream) {
        toOddCoset(a, stream);
        toOddCoset(b, stream);
        toOddCoset(c, stream);
        quotient(a, b, c, stream);
    }

    /** In place, Montgomery → canonical (MSM scalars are canonical). */
    public void fromMontgomery(DeviceBuffer x, GpuStream stream) {
        int threads = module.tunables().elementwiseThreads();
        module.launch(curve.kernel("fr_from_montgomery"), KernelModule.blocksFor(n, threads), threads, stream, x, n);
    }

    /**
     * The passes, as even as they come (2^20: 10 + 10, 2^24: 8 + 8 + 8). Each launch has 2^(K−2) threads per block
     * (4 elements each) and N / 2^K blocks, K = min(logN, nttMaxLogTile): a pass of k &lt; K stages runs 2^(K−k)
     * tiles per block, so that every pass keeps the same block size. Pass 0 reads x (bit-reversed) and writes x
     * itself only when it is the only pass: a single block, which reads all of x before it writes. The last pass
     * multiplies its results by {@code lastScale}'s one element, if given (the inverse's 1/N).
     */
    private void transform(DeviceBuffer x, DeviceBuffer tw, DeviceBuffer lastScale, GpuStream stream) {
        requireSize(x);
        Tunables t = module.tunables();
        int passes = passes(t);
        int tileLog = Math.min(logN, t.nttMaxLogTile());
        int threads = 1 << Math.max(tileLog - 2, 0);
        int s0 = 0;
        for (int pass = 0; pass < passes; pass++) {
            int k = logN / passes + (pass < logN % passes ? 1 : 0);
            DeviceBuffer in = pass == 0 ? x : scratch;
            boolean last = pass == passes - 1;
            DeviceBuffer out = last ? x : scratch;
            CUdeviceptr scale = last && lastScale != null ? lastScale.pointer() : NO_SCALE;
            module.launch(curve.kernel("fr_ntt_pass"), n >> tileLog, threads, stream,
                    in, out, tw, logN, s0, k, scale);
            s0 += k;
        }
    }

    private int passes(Tunables t) {
        return (logN + t.nttMaxLogTile() - 1) / t.nttMaxLogTile();
    }

    private void scale(DeviceBuffer x, ScaleTables tables, GpuStream stream) {
        int threads = module.tunables().elementwiseThreads();
        module.launch(curve.kernel("fr_scale_geometric"), KernelModule.blocksFor(n, threads), threads, stream,
                x, n, tables.lo, tables.hi, tables.logLo);
    }

    private void requireSize(DeviceBuffer x) {
        if (x.bytes() < n * curve.frBytes()) {
            throw new IllegalArgumentException("buffer of " + x.bytes() + " bytes is smaller than 2^" + logN + " elements");
        }
    }

    /** start·step^i for i < count, as one flat Montgomery array. */
    static long[] powers(PrimeField f, long[] start, long[] step, long count) {
        int w = f.limbs();
        long[] out = new long[Math.toIntExact(count * w)];
        long[] acc = start.clone();
        for (int i = 0; i < count; i++) {
            System.arraycopy(acc, 0, out, i * w, w);
            f.mul(acc, 0, step, 0, acc, 0);
        }
        return out;
    }

    /** c·g^i as lo[i mod 2^logLo]·hi[i >> logLo]: lo[j] = g^j, hi[j] = c·g^(j·2^logLo). */
    private static final class ScaleTables implements AutoCloseable {
        final DeviceBuffer lo;
        final DeviceBuffer hi;
        final int logLo;

        ScaleTables(PrimeField f, int logN, long[] c, long[] g) {
            this.logLo = (logN + 1) / 2;
            this.lo = DeviceBuffer.of(powers(f, f.one(), g, 1L << logLo));
            long[] gStride = f.pow(g, BigInteger.ONE.shiftLeft(logLo));
            this.hi = DeviceBuffer.of(powers(f, c, gStride, 1L << (logN - logLo)));
        }

        long bytes() {
            return lo.bytes() + hi.bytes();
        }

        @Override
        public void close() {
            lo.close();
            hi.close();
        }
    }

    @Override
    public void close() {
        twiddles.close();
        inverseTwiddles.close();
        inverseScale.close();
        cosetScale.close();
        if (scratch != null) {
            scratch.close();
        }
    }
}

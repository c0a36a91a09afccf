package io.proofline.algebra.poly;

import io.proofline.algebra.field.PrimeField;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The multiplicative subgroup of order {@code N = 2^k} of a prime field, with the radix-2 number-theoretic transform
 * over it. The generator is snarkjs's: {@code ω_N = 5^((r−1)/N)} (5 is a quadratic non-residue of both BN254's and
 * BLS12-381's 𝔽r, so {@code ω_N} has order exactly N; checked at construction).
 *
 * <p>Domains are cached per (field, size) with what is small: ω, N⁻¹ and the twiddles of the in-cache stages
 * ({@code 2^(BLOCK_LOG−1)} elements, 32 KiB). The full table {@code ω^j, j < N/2} that the later stages read (16·N
 * bytes on a 4-limb field) is a large buffer: it comes from the {@link TwiddleCache#current() current}
 * {@link TwiddleCache} (off the heap, bounded, charged to a budget, evictable) for the length of one transform, and
 * when the cache grants none the transform computes those twiddles as it goes. The inverse transform reuses the
 * forward twiddles through the identity {@code NTT⁻¹(x) = N⁻¹ · reverse(NTT(x))}, where reverse maps index {@code i}
 * to {@code −i mod N}.
 *
 * <p>Cost: {@code (N/2)·log₂N} butterflies of one multiplication each (two in the stages past the blocks when no table
 * was granted). The first {@link #BLOCK_LOG} stages run block by block so each block stays in cache; the later
 * stages are one parallel pass each.
 */
public final class Radix2Domain {

    /** Stages up to blocks of 2^BLOCK_LOG elements (64 KiB at 4 limbs) are done per block, in cache. */
    static final int BLOCK_LOG = 11;
    /** Pairs per bulk-copied run in the stages after the in-cache blocks (2 × 16 KiB at 4 limbs). */
    private static final int RUN = 1 << 9;

    /** The quadratic non-residue snarkjs (ffjavascript) derives its roots of unity from, on both curves. */
    public static final BigInteger NON_RESIDUE = BigInteger.valueOf(5);

    private static final Map<Key, Radix2Domain> CACHE = new ConcurrentHashMap<>();

    private record Key(PrimeField field, int log) {
    }

    private final PrimeField field;
    private final int log;
    private final long size;
    private final int limbs;
    private final long[] omega;
    private final long[] sizeInverse;
    /**
     * The in-cache stages' twiddles: {@code ω^(i·N/2^blockLog)} for {@code i < 2^(blockLog−1)}, Montgomery limbs,
     * flat (the full table at the stride of the widest block stage).
     */
    private final long[] blockTwiddles;

    private Radix2Domain(PrimeField field, int log) {
        this.field = field;
        this.log = log;
        this.size = 1L << log;
        this.limbs = field.limbs();
        this.omega = rootOfUnity(field, size);
        this.sizeInverse = field.fromBigInteger(BigInteger.valueOf(size).modInverse(field.modulus()));
        int blockLog = Math.min(log, BLOCK_LOG);
        long[] step = rootOfUnity(field, 1L << blockLog);
        int count = 1 << (blockLog - 1);
        this.blockTwiddles = new long[count * limbs];
        long[] power = field.fromBigInteger(BigInteger.ONE);
        for (int i = 0; i < count; i++) {
            System.arraycopy(power, 0, blockTwiddles, i * limbs, limbs);
            field.mul(power, 0, step, 0, power, 0);
        }
    }

    /** The (cached) domain of size {@code 2^log} over {@code field}. */
    public static Radix2Domain of(PrimeField field, int log) {
        if (log < 1 || log > 30) {
            throw new IllegalArgumentException("domain size 2^" + log + " out of range");
        }
        return CACHE.computeIfAbsent(new Key(field, log), k -> new Radix2Domain(k.field, k.log));
    }

    /** The smallest domain holding {@code n} points. */
    public static Radix2Domain atLeast(PrimeField field, long n) {
        int log = Math.max(1, 64 - Long.numberOfLeadingZeros(Math.max(1, n - 1)));
        return of(field, log);
    }

    /**
     * A primitive {@code order}-th root of unity {@code 5^((p−1)/order)} (Montgomery limbs), {@code order} a power of
     * two dividing {@code p − 1}. Throws if 5 does not generate a root of exactly that order.
     */
    public static long[] rootOfUnity(PrimeField field, long order) {
        BigInteger pMinus1 = field.modulus().subtract(BigInteger.ONE);
        BigInteger ord = BigInteger.valueOf(order);
        if (Long.bitCount(order) != 1 || !pMinus1.mod(ord).equals(BigInteger.ZERO)) {
            throw new IllegalArgumentException(field + " has no root of unity of order " + order);
        }
        long[] root = field.fromBigInteger(NON_RESIDUE.modPow(pMinus1.divide(ord), field.modulus()));
        if (order > 1) {
            long[] half = new long[field.limbs()];
            field.pow(root, 0, BigInteger.valueOf(order / 2), half, 0);
            long[] minusOne = field.fromBigInteger(pMinus1);
            if (!field.equal(half, 0, minusOne, 0)) {
                throw new IllegalStateException("5 is a residue of " + field + ": no root of exact order " + order);
            }
        }
        return root;
    }

    public PrimeField field() {
        return field;
    }

    public int log() {
        return log;
    }

    public long size() {
        return size;
    }

    /** ω_N (Montgomery limbs, a copy). */
    public long[] generator() {
        return omega.clone();
    }

    /** N⁻¹ (Montgomery limbs, a copy). */
    public long[] sizeInverse() {
        return sizeInverse.clone();
    }

    /** In place: coefficients → evaluations, {@code v_i ← Σ_j v_j·ω^(ij)}. */
    public void forward(FieldVector v) {
        checkLength(v);
        bitReverse(v);
        butterflies(v);
    }

    /** In place: evaluations → coefficients, {@code v_i ← N⁻¹·Σ_j v_j·ω^(−ij)}. */
    public void inverse(FieldVector v) {
        inverseUnscaled(v);
        v.scale(sizeInverse);
    }

    /**
     * In place: {@code N} times the inverse transform, {@code v_i ← Σ_j v_j·ω^(−ij)}. For callers that fold the
     * factor {@code N⁻¹} into a later scaling (the quotient's coset shift).
     */
    public void inverseUnscaled(FieldVector v) {
        forward(v);
        negateIndices(v);
    }

    private void checkLength(FieldVector v) {
        if (v.length() != size || v.field() != field) {
            throw new IllegalArgumentException("vector " + v.field() + "[" + v.length() + "] does not match domain "
                    + field + "[" + size + "]");
        }
    }

    /** Permutes v into bit-reversed index order; each pair is swapped by the thread owning its smaller index. */
    private void bitReverse(FieldVector v) {
        int shift = 64 - log;
        ParallelRange.forEach(size, 1 << 14, (from, to) -> {
            long[] s = new long[2 * limbs];
            for (long i = from; i < to; i++) {
                long j = Long.reverse(i) >>> shift;
                if (j > i) {
                    v.get(i, s, 0);
                    v.get(j, s, limbs);
                    v.set(i, s, limbs);
                    v.set(j, s, 0);
                }
            }
        });
    }

    /** v_i ↔ v_(N−i) for 0 < i < N/2: turns the forward transform into N times the inverse. */
    private void negateIndices(FieldVector v) {
        ParallelRange.forEach(size / 2 - 1, 1 << 14, (from, to) -> {
            long[] s = new long[2 * limbs];
            for (long k = from; k < to; k++) {
                long i = k + 1;
                long j = size - i;
                v.get(i, s, 0);
                v.get(j, s, limbs);
                v.set(i, s, limbs);
                v.set(j, s, 0);
            }
        });
    }

    /**
     * Decimation-in-time stages on bit-reversed input: first the in-cache stages per block, on a heap copy of the
     * block (one bulk copy in and out instead of a segment read and write per butterfly), then one pass each, with
     * the twiddle table of the current {@link TwiddleCache} when it grants one.
     */
    private void butterflies(FieldVector v) {
        int blockLog = Math.min(log, BLOCK_LOG);
        int blockSize = 1 << blockLog;
        MemorySegment segment = v.segment();
        long blockBytes = (long) blockSize * 8 * limbs;
        int blockLongs = blockSize * limbs;
        ParallelRange.forEach(size / blockSize, 1, (fromBlock, toBlock) -> {
            Scratch scratch = Scratch.forThisThread(limbs);
            long[] block = scratch.block;
            long[] product = scratch.product;
            for (long b = fromBlock; b < toBlock; b++) {
                MemorySegment.copy(segment, FieldVector.LIMB, b * blockBytes, block, 0, blockLongs);
                for (int stage = 1; stage <= blockLog; stage++) {
                    blockStage(block, blockSize, stage, blockLog, product);
                }
                MemorySegment.copy(block, 0, segment, FieldVector.LIMB, b * blockBytes, blockLongs);
            }
        });
        if (log <= blockLog) {
            return;
        }
        Optional<TwiddleCache.Lease> lease = TwiddleCache.current().acquire(field, log);
        try {
            MemorySegment table = lease.map(TwiddleCache.Lease::table).orElse(null);
            for (int stage = blockLog + 1; stage <= log; stage++) {
                stage(segment, stage, table);
            }
        } finally {
            lease.ifPresent(TwiddleCache.Lease::close);
        }
    }

    /**
     * One stage past the in-cache blocks, in runs of RUN consecutive pairs (half ≥ 2^BLOCK_LOG > RUN, so a run never
     * crosses a group): the run's u and t halves are copied to the heap in bulk, transformed, and copied back. The
     * run's twiddles {@code ω^((j0+e)·stride)} are read from {@code table}, or, without one, computed: the first by
     * a power, each next by one multiplication.
     */
    private void stage(MemorySegment segment, int stage, MemorySegment table) {
        long half = 1L << (stage - 1);
        long stride = 1L << (log - stage);
        long strideBytes = stride * 8 * limbs;
        long[] step = table == null ? rootOfUnity(field, 2 * half) : null;
        ParallelRange.forEach(size / 2 / RUN, 1, (fromRun, toRun) -> {
            Scratch scratch = Scratch.forThisThread(limbs);
            long[] us = scratch.us;
            long[] ts = scratch.ts;
            long[] tws = scratch.tws;
            long[] product = scratch.product;
            for (long r = fromRun; r < toRun; r++) {
                long k = r * RUN;
                long j0 = k & (half - 1);
                long i0 = ((k - j0) << 1) + j0;
                long uOff = i0 * 8 * limbs, tOff = (i0 + half) * 8 * limbs;
                MemorySegment.copy(segment, FieldVector.LIMB, uOff, us, 0, us.length);
                MemorySegment.copy(segment, FieldVector.LIMB, tOff, ts, 0, ts.length);
                if (table == null) {
                    powers(step, j0, tws);
                } else if (stride == 1) {
                    MemorySegment.copy(table, FieldVector.LIMB, j0 * strideBytes, tws, 0, tws.length);
                } else {
                    // one element every stride: plain reads (a bulk copy per element costs more than the element)
                    long off = j0 * strideBytes;
                    for (int e = 0; e < tws.length; e += limbs, off += strideBytes) {
                        for (int l = 0; l < limbs; l++) {
                            tws[e + l] = table.get(FieldVector.LIMB, off + 8L * l);
                        }
                    }
                }
                for (int e = 0; e < us.length; e += limbs) {
                    field.mul(ts, e, tws, e, product, 0);
                    field.sub(us, e, product, 0, ts, e);
                    field.add(us, e, product, 0, us, e);
                }
                MemorySegment.copy(us, 0, segment, FieldVector.LIMB, uOff, us.length);
                MemorySegment.copy(ts, 0, segment, FieldVector.LIMB, tOff, ts.length);
            }
        });
    }

    /** {@code out[e] = step^(first + e)} for the run's elements. */
    private void powers(long[] step, long first, long[] out) {
        field.pow(step, 0, BigInteger.valueOf(first), out, 0);
        for (int e = limbs; e < out.length; e += limbs) {
            field.mul(out, e - limbs, step, 0, out, e);
        }
    }

    /**
     * One stage over a block held on the heap: groups of {@code 2·half} elements, pairs {@code half} apart, the
     * twiddle of pair j being ω^(j·N/(2·half)). The first pair of every group has twiddle 1 and skips its
     * multiplication (all of stage 1, half of stage 2, …: about 2 stages' worth of multiplications per transform).
     */
    private void blockStage(long[] block, int n, int stage, int blockLog, long[] product) {
        int half = 1 << (stage - 1);
        int twiddleStride = (1 << (blockLog - stage)) * limbs;
        for (int group = 0; group < n; group += 2 * half) {
            int u = group * limbs;
            int t = (group + half) * limbs;
            field.sub(block, u, block, t, product, 0);
            field.add(block, u, block, t, block, u);
            System.arraycopy(product, 0, block, t, limbs);
            for (int j = 1; j < half; j++) {
                u += limbs;
                t += limbs;
                field.mul(block, t, blockTwiddles, j * twiddleStride, product, 0);
                field.sub(block, u, product, 0, block, t);
                field.add(block, u, product, 0, block, u);
            }
        }
    }

    /**
     * One thread's working arrays for the butterflies: a block and a run's u, t and twiddle halves (112 KiB at 4
     * limbs). Kept per thread, like the MSM's bucket sets, so that a transform allocates nothing once the pool's
     * threads have theirs (a fresh set per chunk was most of a CPU proof's heap garbage after the MSMs).
     */
    private static final class Scratch {
        private static final ThreadLocal<Scratch> PER_THREAD = new ThreadLocal<>();

        final int limbs;
        final long[] block;
        final long[] us;
        final long[] ts;
        final long[] tws;
        final long[] product;

        private Scratch(int limbs) {
            this.limbs = limbs;
            this.block = new long[(1 << BLOCK_LOG) * limbs];
            this.us = new long[RUN * limbs];
            this.ts = new long[RUN * limbs];
            this.tws = new long[RUN * limbs];
            this.product = new long[limbs];
        }

        static Scratch forThisThread(int limbs) {
            Scratch s = PER_THREAD.get();
            if (s == null || s.limbs != limbs) {
                s = new Scratch(limbs);
                PER_THREAD.set(s);
            }
            return s;
        }
    }
}

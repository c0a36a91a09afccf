package io.proofline.gpu;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.DeviceUsage;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.Synthesized;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Prove start on one device: its context, kernels and stream, the keys resident there, and working buffers reused
 * from one proof to the next (a/b/c, the witness's scalars, NTT twiddles per domain, MSM scratch per size). One proof
 * at a time: {@link #proveStart} is synchronized.
 *
 * <p>Steps (DESIGN §2, §7), all on one stream:
 * <ol>
 * <li>pin the key's resident G1 sections (uploaded on first use);
 * <li>upload a, b, c; H = 3 inverse NTTs, ·ω_2N^i, 3 NTTs, {@code h = a'b' − c'}, to canonical form;
 * <li>upload the witness; ΣA, ΣB1 over all of it, ΣC over {@code w[ℓ+1..]}, ΣH over h;
 * <li>when configured, ΣB2 on G2 over the whole witness too (else prove finish runs it on CPU threads).
 * </ol>
 */
final class GpuProverWorker implements AutoCloseable {

    /** MSM and NTT instances kept, by size: the three MSM sizes and one domain of a couple of circuits. */
    private static final int KEPT_PER_SIZE = 8;
    /** System property: {@code false} uploads a/b/c and the witness straight from pageable memory (for comparison). */
    static final String PINNED_STAGING_PROPERTY = "proofline.gpu.pinned-staging";
    private static final boolean PINNED_STAGING =
            Boolean.parseBoolean(System.getProperty(PINNED_STAGING_PROPERTY, "true"));

    private final GpuContext context;
    private final KernelModule module;
    private final GpuStream stream;
    /** Pinned staging for a/b/c and the witness; null when {@value #PINNED_STAGING_PROPERTY} is false. */
    private final PinnedStaging staging;
    private final ResidentKeyCache<ProvingKey, ResidentKey> keys;
    private final boolean b2OnDevice;
    private final Map<Integer, GpuNtt> ntts = lru();
    private final Map<String, GpuMsm> msms = lru();
    private final Scratch a = new Scratch();
    private final Scratch b = new Scratch();
    private final Scratch c = new Scratch();
    private final Scratch witness = new Scratch();
    private final Scratch privateWitness = new Scratch();
    private volatile Map<String, Double> lastStages = Map.of();

    GpuProverWorker(GpuDevice device, long keyBudgetBytes, boolean b2OnDevice) {
        this.b2OnDevice = b2OnDevice;
        this.context = GpuContext.open(device);
        try {
            this.module = KernelModule.load(context);
            this.stream = new GpuStream();
            this.staging = PINNED_STAGING ? new PinnedStaging() : null;
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
        this.keys = new ResidentKeyCache<>(keyBudgetBytes);
    }

    GpuDevice device() {
        return context.device();
    }

    ResidentKeyCache<ProvingKey, ResidentKey> keys() {
        return keys;
    }

    /**
     * Frees {@code key}'s resident copy if no proof holds it. Not synchronized with {@link #proveStart} (the cache's
     * pins protect a key in use); the context is made current because freeing is a driver call on this thread.
     */
    boolean evict(ProvingKey key) {
        context.makeCurrent();
        return keys.evict(key);
    }

    synchronized PendingProof proveStart(ProvingKey key, Witness w, Synthesized abc) {
        context.makeCurrent();
        GpuCurve curve = GpuCurves.of(key.curve());
        int n = key.domainSize();
        int m = key.nVars();
        int firstPrivate = key.nPublic() + 1;
        long scalar = GpuMsm.SCALAR_BYTES;
        try (ResidentKeyCache.Lease<ResidentKey> lease =
                     keys.acquire(key, ResidentKey.bytes(key, b2OnDevice), () -> ResidentKey.upload(key, b2OnDevice))) {
            ResidentKey points = lease.value();
            StageClock clock = new StageClock();
            // H on the device.
            DeviceBuffer da = upload(a, abc.a().segment());
            DeviceBuffer db = upload(b, abc.b().segment());
            DeviceBuffer dc = upload(c, abc.c().segment());
            clock.lap("upload a,b,c");
            int logN = Integer.numberOfTrailingZeros(n);
            // Keyed by curve and size: the twiddles differ per Fr.
            GpuNtt ntt = ntts.computeIfAbsent(curve.ordinal() * 64 + logN, k -> new GpuNtt(module, curve, logN));
            ntt.computeH(da, db, dc, stream);
            ntt.fromMontgomery(da, stream);
            stream.synchronize();
            clock.lap("H");
            // The G1 MSMs.
            DeviceBuffer dw = upload(witness, w.canonical());
            clock.lap("upload w");
            GpuGroup g1 = GpuGroup.g1(curve);
            long[] sumA = msm(g1, m).runAffine(points.a, dw, stream);
            clock.lap("msm A");
            long[] sumB1 = msm(g1, m).runAffine(points.b1, dw, stream);
            clock.lap("msm B1");
            long[] sumC;
            if (m > firstPrivate) {
                DeviceBuffer dp = privateWitness.ensure((m - firstPrivate) * scalar);
                dp.copyRangeFromAsync(dw, firstPrivate * scalar, (m - firstPrivate) * scalar, stream);
                sumC = msm(g1, m - firstPrivate).runAffine(points.c, dp, stream);
            } else {
                sumC = new long[curve.affineBytes() / 8];
            }
            clock.lap("msm C");
            long[] sumH = msm(g1, n).runAffine(points.h, da, stream);
            clock.lap("msm H");
            long[] sumB2 = null;
            if (b2OnDevice) {
                sumB2 = msm(GpuGroup.g2(curve), m).runAffine(points.b2, dw, stream);
                clock.lap("msm B2");
            }
            lastStages = clock.laps();
            return new PendingProof(key, w, sumA, sumB1, sumC, sumH, sumB2);
        }
    }

    /** Copies {@code src} into {@code scratch} (grown as needed): through the pinned staging, queued on the stream. */
    private DeviceBuffer upload(Scratch scratch, java.lang.foreign.MemorySegment src) {
        DeviceBuffer d = scratch.ensure(src.byteSize());
        if (staging != null) {
            staging.upload(src, d, 0, stream);
        } else {
            d.upload(src);
        }
        return d;
    }

    /** The MSM instance of this group and size, kept for the next proof. */
    private GpuMsm msm(GpuGroup group, int n) {
        return msms.computeIfAbsent(group + "/" + n, k -> new GpuMsm(module, group, n));
    }

    /** Host-clock milliseconds of the last prove start's steps, in order (uploads, H, each MSM). */
    Map<String, Double> lastStages() {
        return lastStages;
    }

    /** Device bytes of the working buffers (not the resident keys). */
    synchronized long scratchBytes() {
        long bytes = a.bytes() + b.bytes() + c.bytes() + witness.bytes() + privateWitness.bytes();
        for (GpuMsm msm : msms.values()) {
            bytes += msm.scratchBytes();
        }
        for (GpuNtt ntt : ntts.values()) {
            bytes += nttBytes(ntt);
        }
        return bytes;
    }

    /** Working buffers held: each a/b/c/witness buffer in use, each MSM's scratch, each NTT's tables. */
    synchronized long scratchBuffers() {
        long count = msms.size() + ntts.size();
        for (Scratch s : new Scratch[] {a, b, c, witness, privateWitness}) {
            count += s.bytes() > 0 ? 1 : 0;
        }
        return count;
    }

    /**
     * What {@link GpuNtt} allocates for a domain of N: forward and inverse twiddles (N/2 elements each) and two pairs
     * of scale tables (2^⌈log N / 2⌉ + 2^⌊log N / 2⌋ elements each pair).
     */
    static long nttBytes(GpuNtt ntt) {
        int logLo = (ntt.logN() + 1) / 2;
        long scale = (1L << logLo) + (1L << (ntt.logN() - logLo));
        return (ntt.size() + 2 * scale) * GpuMsm.SCALAR_BYTES;
    }

    /**
     * The figures of the buffer table: the driver's used/free, resident keys, working buffers. Synchronized like
     * {@link #proveStart}, so a caller that already holds the worker's monitor reads a quiet worker.
     */
    synchronized DeviceUsage usage() {
        context.makeCurrent();
        long[] freeTotal = context.memoryInfo();
        return new DeviceUsage(freeTotal[1] - freeTotal[0], freeTotal[0], keys.size(), keys.residentBytes(),
                scratchBuffers(), scratchBytes());
    }

    @Override
    public synchronized void close() {
        context.makeCurrent();
        ntts.values().forEach(GpuNtt::close);
        msms.values().forEach(GpuMsm::close);
        ntts.clear();
        msms.clear();
        for (Scratch s : new Scratch[] {a, b, c, witness, privateWitness}) {
            s.close();
        }
        keys.close();
        if (staging != null) {
            staging.close();
        }
        stream.close();
        module.close();
        context.close();
    }

    private static <K, T extends AutoCloseable> Map<K, T> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, T> eldest) {
                if (size() <= KEPT_PER_SIZE) {
                    return false;
                }
                try {
                    eldest.getValue().close();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                return true;
            }
        };
    }

    /** A device buffer that grows to the largest size asked of it and is otherwise reused. */
    private static final class Scratch implements AutoCloseable {
        private DeviceBuffer buffer;

        DeviceBuffer ensure(long bytes) {
            if (buffer == null || buffer.bytes() < bytes) {
                close();
                buffer = DeviceBuffer.allocate(bytes);
            }
            return buffer;
        }

        long bytes() {
            return buffer == null ? 0 : buffer.bytes();
        }

        @Override
        public void close() {
            if (buffer != null) {
                buffer.close();
                buffer = null;
            }
        }
    }
}

package io.proofline.gpu.internal;

import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuCurve;
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
 * <p>Steps (DESIGN §2, §7) on two streams, so that the uploads, H and the latency-bound tails of one stream's MSMs
 * overlap the other stream's work, with the host waiting once at the end:
 * <ol>
 * <li>pin the key's resident sections (uploaded on first use);
 * <li>stream w: upload the witness, sort its scalars into buckets once ({@link MsmSchedule}), then ΣA, ΣC (C is
 *     resident behind ℓ + 1 points at infinity, so it takes the whole witness too: {@link ResidentKey}) and, where
 *     {@link GpuConfig#b2()} places it on the device, ΣB2 on G2 (else prove finish runs it on CPU threads);
 * <li>stream h: a, b, c — evaluated from the key's resident constraint rows ({@link DeviceRows}) once the witness is
 *     up, or uploaded when the caller evaluated them on the host; H = 3 inverse NTTs, ·ω_2N^i, 3 NTTs, {@code h = a'b' − c'}, to canonical form; then,
 *     once stream w has sorted the witness, ΣB1 along the same schedule; then ΣH over h (its own sort);
 * <li>each MSM's window sums, copied to pinned host memory on its stream, are combined on the host (Horner) and made
 *     affine as soon as an event says its stream has finished it, so that only the last MSM's Horner step follows the
 *     device's end.
 * </ol>
 *
 * <p>Each step marks its end on its stream for the worker's {@link ProveStartProbe}: {@link ProveStartProbe#NONE} for
 * the proofs the service proves, a recording one in the lab's timing harness.
 */
public final class GpuProverWorker implements AutoCloseable {

    /** Instances kept per map (MSMs, schedules, NTTs), least recently used evicted: the five MSMs, two schedules and one domain of a couple of circuits. */
    private static final int KEPT_INSTANCES = 12;

    private final GpuContext context;
    private final KernelModule module;
    /** The witness's MSMs (and the uploads of one-stream callers). */
    private final GpuStream stream;
    /** a, b, c, H, ΣB1 and ΣH. */
    private final GpuStream streamH;
    /** Pinned staging for a/b/c and the witness: asynchronous copies need page-locked host memory. */
    private final PinnedStaging staging;
    private final ResidentKeyCache<ProvingKey, ResidentKey> keys;
    private final GpuConfig.B2Placement b2;
    /** Whether keys carry their constraint rows, so that a/b/c can be evaluated here. */
    private final boolean rowsResident;
    private final MsmShape shape;
    private final Map<Integer, GpuNtt> ntts = lru();
    private final Map<String, GpuMsm> msms = lru();
    private final Map<String, MsmSchedule> schedules = lru();
    private final Scratch a = new Scratch();
    private final Scratch b = new Scratch();
    private final Scratch c = new Scratch();
    private final Scratch witness = new Scratch();
    private final ProveStartProbe probe;

    public GpuProverWorker(GpuDevice device, long keyBudgetBytes, GpuConfig config, ProveStartProbe probe) {
        this.probe = probe;
        this.b2 = config.b2();
        this.rowsResident = config.abc() == GpuConfig.AbcPlacement.DEVICE;
        this.shape = config.msmShape();
        this.context = GpuContext.open(device);
        try {
            this.module = KernelModule.load(context, config.kernels());
            this.stream = new GpuStream();
            this.streamH = new GpuStream();
            this.staging = new PinnedStaging();
        } catch (RuntimeException e) {
            context.close();
            throw e;
        }
        this.keys = new ResidentKeyCache<>(keyBudgetBytes);
    }

    public GpuDevice device() {
        return context.device();
    }

    public ResidentKeyCache<ProvingKey, ResidentKey> keys() {
        return keys;
    }

    /**
     * Frees {@code key}'s resident copy if no proof holds it. Not synchronized with {@link #proveStart} (the cache's
     * pins protect a key in use); the context is made current because freeing is a driver call on this thread.
     */
    public boolean evict(ProvingKey key) {
        context.makeCurrent();
        return keys.evict(key);
    }

    /**
     * Prove start of {@code key} on witness {@code w}, with {@code abc} from the host, or — {@code abc} null — a/b/c
     * evaluated here from the key's resident rows (the worker must be configured with {@code abc: device}).
     */
    public synchronized PendingProof proveStart(ProvingKey key, Witness w, Synthesized abc) {
        if (abc == null && !rowsResident) {
            throw new IllegalArgumentException("a/b/c on the device need abc: device (the key's rows resident)");
        }
        context.makeCurrent();
        GpuCurve curve = GpuCurves.of(key.curve());
        int n = key.domainSize();
        int m = key.nVars();
        GpuGroup g1 = GpuGroup.g1(curve);
        boolean b2OnDevice = b2.onDevice(ResidentKey.bytes(key, true, rowsResident), keys.budgetBytes());
        try (ResidentKeyCache.Lease<ResidentKey> lease =
                     keys.acquire(key, ResidentKey.bytes(key, b2OnDevice, rowsResident),
                             () -> ResidentKey.upload(key, b2OnDevice, rowsResident));
             Sums sums = new Sums()) {
            ResidentKey points = lease.value();
            probe.begins();
            StepTimes onW = probe.steps("w");
            StepTimes onH = probe.steps("h");
            // Stream w: the witness, sorted once for ΣA, ΣB1, ΣC and ΣB2. Each MSM and sort marks its parts, so that
            // a step's span shows which of its kernels waited for the other stream.
            onW.mark("start", stream);
            DeviceBuffer dw = upload(witness, w.canonical(), stream);
            onW.mark("upload w", stream);
            MsmSchedule byWitness = schedule("w", curve, m);
            byWitness.enqueueSort(dw, stream, onW.within("sort w"));
            GpuMsm msmA = msm("A", g1, m);
            GpuMsm msmB1 = msm("B1", g1, m);
            GpuMsm msmC = msm("C", g1, m);
            GpuMsm msmH = msm("H", g1, n);
            GpuMsm msmB2 = b2OnDevice ? msm("B2", GpuGroup.g2(curve), m) : null;
            DeviceBuffer da;  // a, then H in canonical form: ΣH's scalars
            try (GpuEvent sorted = GpuEvent.record(stream)) {
                msmA.enqueue(byWitness, points.a, dw, stream, onW.within("msm A"));
                sums.queued(msmA, stream);
                msmC.enqueue(byWitness, points.c, dw, stream, onW.within("msm C"));
                sums.queued(msmC, stream);
                if (msmB2 != null) {
                    msmB2.enqueue(byWitness, points.b2, dw, stream, onW.within("msm B2"));
                    sums.queued(msmB2, stream);
                }
                // Stream h, while stream w computes: a, b, c, H, then ΣB1 along the witness's schedule, then ΣH.
                probe.streamWQueued(stream, streamH);
                onH.mark("start", streamH);
                DeviceBuffer db;
                DeviceBuffer dc;
                if (abc == null) {
                    long bytes = (long) n * curve.frBytes();
                    da = a.ensure(bytes);
                    db = b.ensure(bytes);
                    dc = c.ensure(bytes);
                    streamH.waitFor(sorted); // the witness is up (and sorted, which ΣB1 waits for anyway)
                    points.rows.evaluate(module, curve, dw, da, db, dc, streamH);
                    onH.mark("a,b,c from rows", streamH);
                } else {
                    da = upload(a, abc.a().segment(), streamH);
                    db = upload(b, abc.b().segment(), streamH);
                    dc = upload(c, abc.c().segment(), streamH);
                    onH.mark("upload a,b,c", streamH);
                }
                int logN = Integer.numberOfTrailingZeros(n);
                // Keyed by curve and size: the twiddles differ per Fr.
                GpuNtt ntt = ntts.computeIfAbsent(curve.ordinal() * 64 + logN, k -> new GpuNtt(module, curve, logN));
                ntt.computeH(da, db, dc, streamH);
                ntt.fromMontgomery(da, streamH);
                onH.mark("H", streamH);
                streamH.waitFor(sorted);
                msmB1.enqueue(byWitness, points.b1, dw, streamH, onH.within("msm B1"));
                sums.queued(msmB1, streamH);
            }
            MsmSchedule byH = schedule("h", curve, n);
            byH.enqueueSort(da, streamH, onH.within("sort h"));
            msmH.enqueue(byH, points.h, da, streamH, onH.within("msm H"));
            sums.queued(msmH, streamH);
            probe.hostStep("enqueue (host)");
            sums.collectAsDone(probe);
            stream.synchronize();
            streamH.synchronize();
            PendingProof pending = new PendingProof(key, w, sums.affine(msmA), sums.affine(msmB1), sums.affine(msmC),
                    sums.affine(msmH), msmB2 == null ? null : sums.affine(msmB2));
            probe.ends();
            return pending;
        }
    }

    /** Copies {@code src} into {@code scratch} (grown as needed): through the pinned staging, queued on the stream. */
    private DeviceBuffer upload(Scratch scratch, java.lang.foreign.MemorySegment src, GpuStream on) {
        DeviceBuffer d = scratch.ensure(src.byteSize());
        staging.upload(src, d, 0, on);
        return d;
    }

    /**
     * The MSM instance of this role (A, B1, C, H, B2), group and size, kept for the next proof: one per role, so that
     * the five MSMs of a proof can be in flight at once, each with its own bucket sums and result.
     */
    private GpuMsm msm(String role, GpuGroup group, int n) {
        return msms.computeIfAbsent(role + "/" + group + "/" + n, k -> new GpuMsm(module, group, n, shape));
    }

    /** The schedule for the scalars {@code of} (w: the witness, h: H) of MSMs of size n (G1 and G2 alike). */
    private MsmSchedule schedule(String of, GpuCurve curve, int n) {
        return schedules.computeIfAbsent(of + "/" + curve + "/" + n,
                k -> new MsmSchedule(module, curve, n, shape.windowBits(n), shape));
    }

    /** Device bytes of the working buffers (not the resident keys). */
    public synchronized long scratchBytes() {
        long bytes = a.bytes() + b.bytes() + c.bytes() + witness.bytes();
        for (GpuMsm msm : msms.values()) {
            bytes += msm.scratchBytes();
        }
        for (MsmSchedule schedule : schedules.values()) {
            bytes += schedule.bytes();
        }
        for (GpuNtt ntt : ntts.values()) {
            bytes += ntt.deviceBytes();
        }
        return bytes;
    }

    /** Working buffers held: each a/b/c/witness buffer in use, each MSM's scratch, each NTT's tables. */
    synchronized long scratchBuffers() {
        long count = msms.size() + schedules.size() + ntts.size();
        for (Scratch s : new Scratch[] {a, b, c, witness}) {
            count += s.bytes() > 0 ? 1 : 0;
        }
        return count;
    }

    /**
     * The figures of the buffer table: the driver's used/free, resident keys, working buffers (a/b/c among them).
     * Synchronized like
     * {@link #proveStart}, so a caller that already holds the worker's monitor reads a quiet worker.
     */
    public synchronized DeviceUsage usage() {
        context.makeCurrent();
        long[] freeTotal = context.memoryInfo();
        long abcBuffers = 0;
        for (Scratch s : new Scratch[] {a, b, c}) {
            abcBuffers += s.bytes() > 0 ? 1 : 0;
        }
        return new DeviceUsage(freeTotal[1] - freeTotal[0], freeTotal[0], keys.size(), keys.residentBytes(),
                scratchBuffers(), scratchBytes(), abcBuffers, a.bytes() + b.bytes() + c.bytes());
    }

    /**
     * Frees everything and releases the context. Each step runs even when an earlier one failed — after a sticky
     * error every free fails — so that the context is released in any case (the driver destroys a primary context
     * no one holds, and the next open gets a fresh one); the first failure is thrown at the end.
     */
    @Override
    public synchronized void close() {
        java.util.List<RuntimeException> failures = new java.util.ArrayList<>();
        attempt(failures, context::makeCurrent);
        attempt(failures, () -> ntts.values().forEach(GpuNtt::close));
        attempt(failures, () -> msms.values().forEach(GpuMsm::close));
        attempt(failures, () -> schedules.values().forEach(MsmSchedule::close));
        ntts.clear();
        msms.clear();
        schedules.clear();
        for (Scratch s : new Scratch[] {a, b, c, witness}) {
            attempt(failures, s::close);
        }
        attempt(failures, keys::close);
        attempt(failures, staging::close);
        attempt(failures, stream::close);
        attempt(failures, streamH::close);
        attempt(failures, module::close);
        attempt(failures, context::close);
        if (!failures.isEmpty()) {
            RuntimeException first = failures.getFirst();
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
    }

    private static void attempt(java.util.List<RuntimeException> failures, Runnable step) {
        try {
            step.run();
        } catch (RuntimeException e) {
            failures.add(e);
        }
    }

    private static <K, T extends AutoCloseable> Map<K, T> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<K, T> eldest) {
                if (size() <= KEPT_INSTANCES) {
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

    /**
     * The MSMs of one prove start, each with an event after its last step, collected (Horner, made affine: host work)
     * in the order their streams finish them, so that the Horner steps of the earlier MSMs run while the device is
     * still busy with the later ones and only the last one's follows the device's end.
     */
    private static final class Sums implements AutoCloseable {
        /** Between two looks at the events: short against an MSM, long enough not to keep a core busy. */
        private static final long POLL_NANOS = 50_000;

        private final Map<GpuMsm, GpuEvent> queued = new LinkedHashMap<>();
        private final Map<GpuMsm, long[]> affine = new java.util.HashMap<>();

        void queued(GpuMsm msm, GpuStream stream) {
            queued.put(msm, GpuEvent.record(stream));
        }

        /**
         * Collects every MSM as its event completes; tells {@code probe} when the last one's device work is done
         * ("wait for the device", the earlier MSMs' Horner steps included) and after its Horner step.
         */
        void collectAsDone(ProveStartProbe probe) {
            while (!queued.isEmpty()) {
                GpuMsm done = null;
                for (Map.Entry<GpuMsm, GpuEvent> e : queued.entrySet()) {
                    if (e.getValue().done()) {
                        done = e.getKey();
                        break;
                    }
                }
                if (done == null) {
                    java.util.concurrent.locks.LockSupport.parkNanos(POLL_NANOS);
                    continue;
                }
                boolean last = queued.size() == 1;
                if (last) {
                    probe.hostStep("wait for the device (Horner of the MSMs done meanwhile)");
                }
                queued.remove(done).close();
                affine.put(done, done.collectAffine());
                if (last) {
                    probe.hostStep("Horner of the last MSM (host)");
                }
            }
        }

        /** Destroys the events of the MSMs not collected (a prove start that failed). */
        @Override
        public void close() {
            queued.values().forEach(GpuEvent::close);
            queued.clear();
        }

        long[] affine(GpuMsm msm) {
            return affine.get(msm);
        }
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

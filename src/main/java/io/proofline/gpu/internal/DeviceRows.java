package io.proofline.gpu.internal;

import io.proofline.gpu.GpuCurve;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.prover.ConstraintRows;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * A key's constraint rows ({@link ConstraintRows}: A and B by constraint) resident on one device beside its points,
 * so that prove start evaluates a = A·w, b = B·w, c = a∘b there from the witness it uploads anyway
 * (native-cuda/abc/abc.cuh). Built on the host and uploaded once, with the key ({@link ResidentKey}); its bytes are
 * part of the key's in the device key budget, and it is freed when the key is evicted.
 *
 * <p>Besides the rows, the device holds the list of long rows — those with more than {@value #LONG_ROW_ENTRIES}
 * entries, which get a warp each instead of a thread. The list's buffer is sized for the most long rows the entry
 * count allows, so that the key's device bytes are known before anything is built.
 */
public final class DeviceRows implements AutoCloseable {

    /** Entries (A and B together) above which a row gets a whole warp: a row longer than a warp's lanes. */
    static final int LONG_ROW_ENTRIES = 32;

    private final DeviceBuffer starts;
    private final DeviceBuffer signals;
    private final DeviceBuffer values;
    private final DeviceBuffer longRows;
    private final int rows;
    private final int longRowCount;

    private DeviceRows(DeviceBuffer starts, DeviceBuffer signals, DeviceBuffer values, DeviceBuffer longRows, int rows,
                       int longRowCount) {
        this.starts = starts;
        this.signals = signals;
        this.values = values;
        this.longRows = longRows;
        this.rows = rows;
        this.longRowCount = longRowCount;
    }

    /** Device bytes of {@code key}'s rows, as {@link #upload} allocates them. */
    static long bytes(ProvingKey key) {
        return bytes(key.domainSize(), key.coefficients().count(), key.curve().fr().bytes());
    }

    /** Device bytes for {@code rows} rows of {@code entries} entries of {@code valueBytes}-byte values. */
    static long bytes(int rows, int entries, int valueBytes) {
        return ConstraintRows.byteSize(rows, entries, valueBytes) + longRowListBytes(entries);
    }

    /** The long-row list's buffer: one word for each row that {@code entries} entries can make long. */
    static long longRowListBytes(int entries) {
        return 4L * (entries / (LONG_ROW_ENTRIES + 1));
    }

    /** The rows with more than {@value #LONG_ROW_ENTRIES} entries, ascending. */
    static int[] longRows(ConstraintRows host) {
        int[] found = new int[Math.toIntExact(longRowListBytes(host.entries()) / 4)];
        int count = 0;
        for (int r = 0; r < host.rows(); r++) {
            if (host.end(r, Coefficients.B) - host.start(r, Coefficients.A) > LONG_ROW_ENTRIES) {
                found[count++] = r;
            }
        }
        return Arrays.copyOf(found, count);
    }

    /**
     * Builds {@code key}'s rows on the host and uploads them (synchronously) into the current context. The host copy
     * ({@link ConstraintRows#hostBytes}, at most the zkey's size) is covered by the key's reservation in the service's
     * key cache, which reserves the zkey's size twice where a device keeps rows; so that one reservation covers
     * every upload, devices uploading the same key build their host copies one at a time.
     */
    static DeviceRows upload(ProvingKey key) {
        synchronized (key) {
            try (ConstraintRows host = ConstraintRows.of(key)) {
                return upload(host);
            }
        }
    }

    /** Uploads {@code host} (synchronously); on a failure frees what it had allocated. */
    public static DeviceRows upload(ConstraintRows host) {
        int[] longRows = longRows(host);
        DeviceBuffer[] buffers = new DeviceBuffer[4];
        try {
            MemorySegment[] parts = {host.starts(), host.signals(), host.values()};
            for (int k = 0; k < parts.length; k++) {
                buffers[k] = DeviceBuffer.allocate(parts[k].byteSize());
                buffers[k].upload(parts[k]);
            }
            buffers[3] = DeviceBuffer.allocate(longRowListBytes(host.entries()));
            if (longRows.length > 0) {
                buffers[3].upload(MemorySegment.ofArray(longRows));
            }
            return new DeviceRows(buffers[0], buffers[1], buffers[2], buffers[3], host.rows(), longRows.length);
        } catch (RuntimeException e) {
            for (DeviceBuffer b : buffers) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        }
    }

    /**
     * Queues a = A·w, b = B·w, c = a∘b on {@code stream}: {@code witness} holds the canonical witness (as uploaded
     * for the MSMs), {@code a}, {@code b}, {@code c} receive {@link #rows()} Montgomery elements each, every row
     * written (rows without entries get zero).
     */
    public void evaluate(KernelModule module, GpuCurve curve, DeviceBuffer witness, DeviceBuffer a, DeviceBuffer b,
                  DeviceBuffer c, GpuStream stream) {
        long vectorBytes = (long) rows * curve.frBytes();
        if (a.bytes() < vectorBytes || b.bytes() < vectorBytes || c.bytes() < vectorBytes) {
            throw new IllegalArgumentException("a/b/c buffers of " + a.bytes() + "/" + b.bytes() + "/" + c.bytes()
                    + " bytes for " + rows + " rows");
        }
        int threads = module.tunables().elementwiseThreads();
        module.launch(curve.kernel("fr_abc"), KernelModule.blocksFor(rows, threads), threads, stream,
                starts, signals, values, witness, rows, LONG_ROW_ENTRIES, a, b, c);
        if (longRowCount > 0) {
            module.launch(curve.kernel("fr_abc_long"), KernelModule.blocksFor(32L * longRowCount, threads), threads,
                    stream, starts, signals, values, witness, longRows, longRowCount, a, b, c);
        }
    }

    /** The rows evaluated: the key's domain size. */
    public int rows() {
        return rows;
    }

    /** Rows evaluated by a warp each. */
    public int longRowCount() {
        return longRowCount;
    }

    /** Device bytes held (as {@link #bytes(ProvingKey)} predicts). */
    public long bytes() {
        return starts.bytes() + signals.bytes() + values.bytes() + longRows.bytes();
    }

    @Override
    public void close() {
        starts.close();
        signals.close();
        values.close();
        longRows.close();
    }
}

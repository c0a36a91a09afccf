package io.proofline.gpu.internal;

import io.proofline.snark.ProvingKey;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The point sections of a proving key on one device, in the zkey's layout (affine {@code x‖y}, Montgomery form),
 * which is what {@link GpuMsm} reads: the G1 sections A and B1 ({@code m} points), C, H (N), and — only when the G2
 * MSM runs on the device — B2 ({@code m} G2 points). Otherwise B2 stays on the host, where prove finish runs its MSM
 * on CPU threads. When a/b/c are evaluated on the device, the key's constraint rows ({@link DeviceRows}) are resident
 * too, counted in the same bytes and freed with the points.
 *
 * <p>C is stored as {@code m} points, its {@code m − ℓ − 1} behind ℓ + 1 points at infinity (all zeros): ΣC over the
 * private witness is then an MSM over the whole witness, which shares the sort of the witness's scalars with ΣA, ΣB1
 * and ΣB2 (the points at infinity add nothing). The padding costs (ℓ + 1)·64 or 96 bytes.
 */
final class ResidentKey implements AutoCloseable {

    /** C's place in {@link #sections}. */
    private static final int C_SECTION = 2;

    final DeviceBuffer a;
    final DeviceBuffer b1;
    final DeviceBuffer c;
    final DeviceBuffer h;
    /** Null when B2 stays on the host. */
    final DeviceBuffer b2;
    /** Null when a/b/c are evaluated on the host. */
    final DeviceRows rows;

    private ResidentKey(List<DeviceBuffer> sections, DeviceRows rows) {
        this.a = sections.get(0);
        this.b1 = sections.get(1);
        this.c = sections.get(2);
        this.h = sections.get(3);
        this.b2 = sections.size() > 4 ? sections.get(4) : null;
        this.rows = rows;
    }

    /** Device bytes the key's resident sections take (C with its padding), with its rows when {@code withRows}. */
    static long bytes(ProvingKey key, boolean withB2, boolean withRows) {
        long bytes = cPadding(key) + (withRows ? DeviceRows.bytes(key) : 0);
        for (MemorySegment section : sections(key, withB2)) {
            bytes += section.byteSize();
        }
        return bytes;
    }

    /** The bytes of the ℓ + 1 points at infinity in front of C: C's points are A's size, ℓ + 1 of them fewer. */
    private static long cPadding(ProvingKey key) {
        return key.a().byteSize() - key.c().byteSize();
    }

    /**
     * Uploads the sections, and the rows when {@code withRows}, (synchronously) into the current context; on a
     * failure frees what it had uploaded.
     */
    static ResidentKey upload(ProvingKey key, boolean withB2, boolean withRows) {
        List<DeviceBuffer> uploaded = new ArrayList<>();
        try {
            List<MemorySegment> sections = sections(key, withB2);
            for (int k = 0; k < sections.size(); k++) {
                MemorySegment section = sections.get(k);
                long padding = k == C_SECTION ? cPadding(key) : 0;
                DeviceBuffer d = DeviceBuffer.allocate(padding + section.byteSize());
                uploaded.add(d);
                if (padding > 0) {
                    d.zero(padding);
                }
                d.upload(section, padding);
            }
            return new ResidentKey(uploaded, withRows ? DeviceRows.upload(key) : null);
        } catch (RuntimeException e) {
            uploaded.forEach(DeviceBuffer::close);
            throw e;
        }
    }

    private static List<MemorySegment> sections(ProvingKey key, boolean withB2) {
        return withB2 ? List.of(key.a(), key.b1(), key.c(), key.h(), key.b2())
                : List.of(key.a(), key.b1(), key.c(), key.h());
    }

    @Override
    public void close() {
        a.close();
        b1.close();
        c.close();
        h.close();
        if (b2 != null) {
            b2.close();
        }
        if (rows != null) {
            rows.close();
        }
    }
}

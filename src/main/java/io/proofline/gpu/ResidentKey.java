package io.proofline.gpu;

import io.proofline.snark.ProvingKey;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * The point sections of a proving key on one device, in the zkey's layout (affine {@code x‖y}, Montgomery form),
 * which is what {@link GpuMsm} reads: the G1 sections A and B1 ({@code m} points), C ({@code m − ℓ − 1}), H (N), and
 * — only when the G2 MSM runs on the device — B2 ({@code m} G2 points). Otherwise B2 stays on the host, where prove
 * finish runs its MSM on CPU threads.
 */
final class ResidentKey implements AutoCloseable {

    final DeviceBuffer a;
    final DeviceBuffer b1;
    final DeviceBuffer c;
    final DeviceBuffer h;
    /** Null when B2 stays on the host. */
    final DeviceBuffer b2;

    private ResidentKey(List<DeviceBuffer> sections) {
        this.a = sections.get(0);
        this.b1 = sections.get(1);
        this.c = sections.get(2);
        this.h = sections.get(3);
        this.b2 = sections.size() > 4 ? sections.get(4) : null;
    }

    /** Device bytes the key's resident sections take. */
    static long bytes(ProvingKey key, boolean withB2) {
        long bytes = 0;
        for (MemorySegment section : sections(key, withB2)) {
            bytes += section.byteSize();
        }
        return bytes;
    }

    /** Uploads the sections (synchronously) into the current context; on a failure frees what it had uploaded. */
    static ResidentKey upload(ProvingKey key, boolean withB2) {
        List<DeviceBuffer> uploaded = new ArrayList<>();
        try {
            for (MemorySegment section : sections(key, withB2)) {
                DeviceBuffer d = DeviceBuffer.allocate(section.byteSize());
                uploaded.add(d);
                d.upload(section);
            }
            return new ResidentKey(uploaded);
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
    }
}

package io.proofline.gpu;

import io.proofline.snark.ProvingKey;

/**
 * The G1 point sections of a proving key on one device, in the zkey's layout (affine {@code x‖y}, Montgomery form),
 * which is what {@link GpuMsm} reads: A and B1 ({@code m} points), C ({@code m − ℓ − 1}), H (N). B2 stays on the host:
 * its G2 MSM runs on CPU threads in prove finish.
 */
final class ResidentKey implements AutoCloseable {

    final DeviceBuffer a;
    final DeviceBuffer b1;
    final DeviceBuffer c;
    final DeviceBuffer h;

    private ResidentKey(DeviceBuffer a, DeviceBuffer b1, DeviceBuffer c, DeviceBuffer h) {
        this.a = a;
        this.b1 = b1;
        this.c = c;
        this.h = h;
    }

    /** Device bytes the key's G1 sections take. */
    static long bytes(ProvingKey key) {
        return key.a().byteSize() + key.b1().byteSize() + key.c().byteSize() + key.h().byteSize();
    }

    /** Uploads the four sections (synchronously) into the current context. */
    static ResidentKey upload(ProvingKey key) {
        DeviceBuffer a = null;
        DeviceBuffer b1 = null;
        DeviceBuffer c = null;
        try {
            a = section(key.a().byteSize());
            a.upload(key.a());
            b1 = section(key.b1().byteSize());
            b1.upload(key.b1());
            c = section(key.c().byteSize());
            c.upload(key.c());
            DeviceBuffer h = section(key.h().byteSize());
            try {
                h.upload(key.h());
            } catch (RuntimeException e) {
                h.close();
                throw e;
            }
            return new ResidentKey(a, b1, c, h);
        } catch (RuntimeException e) {
            for (DeviceBuffer b : new DeviceBuffer[] {a, b1, c}) {
                if (b != null) {
                    b.close();
                }
            }
            throw e;
        }
    }

    private static DeviceBuffer section(long bytes) {
        return DeviceBuffer.allocate(bytes);
    }

    @Override
    public void close() {
        a.close();
        b1.close();
        c.close();
        h.close();
    }
}

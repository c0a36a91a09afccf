package io.proofline.engine;

/**
 * A device's memory as the device reports it: the driver's used/free figures ({@code -1} where the device cannot
 * tell), and the buffers the prover holds there by class (DESIGN §3): proving keys resident on the device
 * ({@link BufferClass#KEY_DEVICE}) and working buffers ({@link BufferClass#SCRATCH_DEVICE}). The tracker adds the
 * latter to its table's {@link Stage#RESIDENT} column, so device buffers are counted where host buffers are.
 *
 * @param usedBytes      bytes in use on the device
 * @param freeBytes      bytes still free on the device
 * @param keyBuffers     proving keys resident on the device
 * @param keyBytes       their bytes
 * @param scratchBuffers working buffers on the device
 * @param scratchBytes   their bytes
 */
public record DeviceMemory(long usedBytes, long freeBytes, long keyBuffers, long keyBytes, long scratchBuffers,
                           long scratchBytes) {

    public static final DeviceMemory UNKNOWN = new DeviceMemory(-1, -1);

    public DeviceMemory {
        if (keyBuffers < 0 || keyBytes < 0 || scratchBuffers < 0 || scratchBytes < 0) {
            throw new IllegalArgumentException("negative device buffer figures");
        }
    }

    /** Used and free bytes only (a device that holds no tracked buffers, or cannot say). */
    public DeviceMemory(long usedBytes, long freeBytes) {
        this(usedBytes, freeBytes, 0, 0, 0, 0);
    }

    /** Buffers of {@code bufferClass} on this device: only the two device classes are ever non-zero. */
    public long count(BufferClass bufferClass) {
        return switch (bufferClass) {
            case KEY_DEVICE -> keyBuffers;
            case SCRATCH_DEVICE -> scratchBuffers;
            default -> 0;
        };
    }

    /** Bytes of {@code bufferClass} on this device. */
    public long bytes(BufferClass bufferClass) {
        return switch (bufferClass) {
            case KEY_DEVICE -> keyBytes;
            case SCRATCH_DEVICE -> scratchBytes;
            default -> 0;
        };
    }
}

package io.proofline.engine.device;

import io.proofline.engine.Stage;
import io.proofline.engine.memory.BufferClass;

/**
 * A device's memory as the device reports it: the driver's used/free figures ({@code -1} where the device cannot
 * tell), and the buffers the prover holds there by class (DESIGN §3): proving keys resident on the device
 * ({@link BufferClass#KEY_DEVICE}) and working buffers ({@link BufferClass#SCRATCH_DEVICE}), of which those holding
 * a/b/c are counted as {@link BufferClass#ABC}. The tracker adds keys and working buffers to its table's
 * {@link Stage#RESIDENT} column and the device's a/b/c to the {@link Stage#PROVING} one (where they are used), so
 * device buffers are counted where host buffers are.
 *
 * @param usedBytes      bytes in use on the device
 * @param freeBytes      bytes still free on the device
 * @param keyBuffers     proving keys resident on the device
 * @param keyBytes       their bytes
 * @param scratchBuffers working buffers on the device, a/b/c included
 * @param scratchBytes   their bytes
 * @param abcBuffers     of the working buffers, those holding a/b/c
 * @param abcBytes       their bytes
 */
public record DeviceMemory(long usedBytes, long freeBytes, long keyBuffers, long keyBytes, long scratchBuffers,
                           long scratchBytes, long abcBuffers, long abcBytes) {

    public static final DeviceMemory UNKNOWN = new DeviceMemory(-1, -1);

    public DeviceMemory {
        if (keyBuffers < 0 || keyBytes < 0 || scratchBuffers < 0 || scratchBytes < 0 || abcBuffers < 0
                || abcBytes < 0 || abcBuffers > scratchBuffers || abcBytes > scratchBytes) {
            throw new IllegalArgumentException("negative device buffer figures, or a/b/c beyond the working buffers");
        }
    }

    /** Without a/b/c among the working buffers. */
    public DeviceMemory(long usedBytes, long freeBytes, long keyBuffers, long keyBytes, long scratchBuffers,
                        long scratchBytes) {
        this(usedBytes, freeBytes, keyBuffers, keyBytes, scratchBuffers, scratchBytes, 0, 0);
    }

    /** Used and free bytes only (a device that holds no tracked buffers, or cannot say). */
    public DeviceMemory(long usedBytes, long freeBytes) {
        this(usedBytes, freeBytes, 0, 0, 0, 0);
    }

    /**
     * Buffers of {@code bufferClass} on this device: keys, a/b/c, and the other working buffers (each buffer in one
     * class); 0 for the host classes.
     */
    public long count(BufferClass bufferClass) {
        return switch (bufferClass) {
            case KEY_DEVICE -> keyBuffers;
            case SCRATCH_DEVICE -> scratchBuffers - abcBuffers;
            case ABC -> abcBuffers;
            default -> 0;
        };
    }

    /** Bytes of {@code bufferClass} on this device, as {@link #count} divides them. */
    public long bytes(BufferClass bufferClass) {
        return switch (bufferClass) {
            case KEY_DEVICE -> keyBytes;
            case SCRATCH_DEVICE -> scratchBytes - abcBytes;
            case ABC -> abcBytes;
            default -> 0;
        };
    }

    /** The column of the buffer table where this device's buffers of {@code bufferClass} are counted. */
    public static Stage column(BufferClass bufferClass) {
        return bufferClass == BufferClass.ABC ? Stage.PROVING : Stage.RESIDENT;
    }
}

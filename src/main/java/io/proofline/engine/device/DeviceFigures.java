package io.proofline.engine.device;

/**
 * One proving device in the buffer table.
 *
 * @param id           the device's id
 * @param memory       as the device reports it
 * @param busyWorkers  workers running prove start now
 * @param workers      its bulkhead's size ({@code workersPerDevice})
 * @param breakerState its circuit breaker's state ({@code CLOSED}, {@code OPEN}, {@code HALF_OPEN}, ...)
 * @param fallback     a fallback device (the CPU beside GPUs), used only when no other device can take work
 */
public record DeviceFigures(String id, DeviceMemory memory, int busyWorkers, int workers, String breakerState,
                            boolean fallback) {

    /** An ordinary (not fallback) device. */
    public DeviceFigures(String id, DeviceMemory memory, int busyWorkers, int workers, String breakerState) {
        this(id, memory, busyWorkers, workers, breakerState, false);
    }
}

package io.proofline.engine;

/**
 * A device's memory as the device reports it; {@code -1} where the device cannot tell.
 *
 * @param usedBytes bytes in use on the device
 * @param freeBytes bytes still free on the device
 */
public record DeviceMemory(long usedBytes, long freeBytes) {

    public static final DeviceMemory UNKNOWN = new DeviceMemory(-1, -1);
}

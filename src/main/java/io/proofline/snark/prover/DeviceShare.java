package io.proofline.snark.prover;

import java.util.Objects;

/**
 * One logical proving device: a share of a physical device. The same CUDA ordinal may be configured more than
 * once (two logical devices on one GPU, each with its own stream, worker and resident keys); the shares of
 * one physical device split its memory budget between them.
 *
 * @param ordinal            the physical device (CUDA ordinal)
 * @param id                 the logical device's id, unique in the engine (e.g. {@code gpu1})
 * @param sharers            how many logical devices share the physical one (1 or more)
 * @param memoryBudgetBytes  device memory all shares together may use; 0 means the whole device
 */
public record DeviceShare(int ordinal, String id, int sharers, long memoryBudgetBytes) {

    public DeviceShare {
        Objects.requireNonNull(id, "id");
        if (ordinal < 0 || sharers < 1 || memoryBudgetBytes < 0) {
            throw new IllegalArgumentException("device " + ordinal + " shared by " + sharers + ", budget "
                    + memoryBudgetBytes);
        }
    }
}

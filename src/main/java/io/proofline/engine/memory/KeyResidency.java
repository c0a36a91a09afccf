package io.proofline.engine.memory;

import java.util.List;
import java.util.Optional;

/**
 * Proving keys held in host memory and charged to the {@link MemoryBudget}, admitted by the dispatcher together
 * with the partition that needs them (DESIGN §3): a partition starts only when its own footprint and, if its
 * circuit's key is not resident yet, the key's bytes are reserved in one step. A key is in use while an admitted
 * partition of its circuit is unfinished, and only keys in no use may be evicted, so a key can never hold memory
 * that a waiting partition needs while nothing that holds memory makes progress.
 */
public interface KeyResidency {

    /** For engines whose prover holds its keys itself: admission reserves the partition only. */
    KeyResidency NONE = new KeyResidency() {
        @Override
        public long keyBytes(String circuitId) {
            return 0;
        }

        @Override
        public long missingBytes(String circuitId) {
            return 0;
        }

        @Override
        public Optional<KeyAdmission> tryAdmit(String circuitId, long partitionBytes, MemoryBudget budget) {
            return budget.tryAcquire(partitionBytes).map(r -> new KeyAdmission(r, () -> { }));
        }

        @Override
        public long evictUnused(long bytesWanted, List<String> queuedCircuits) {
            return 0;
        }
    };

    /** The bytes the circuit's key holds once resident. */
    long keyBytes(String circuitId);

    /** The bytes admitting the circuit's key would reserve now: 0 when it is resident or being loaded. */
    long missingBytes(String circuitId);

    /**
     * Reserves {@code partitionBytes} plus, when the circuit's key is not resident (or being loaded), the key's
     * bytes, if all are free now; never waits. The key stays in use until the admission's key use is closed.
     */
    Optional<KeyAdmission> tryAdmit(String circuitId, long partitionBytes, MemoryBudget budget);

    /**
     * Evicts keys in no use until at least {@code bytesWanted} went back to the budget or none is left to evict:
     * first keys no queued partition needs (least recently used first), then keys of queued circuits from the
     * lowest priority up. The first of {@code queuedCircuits} (the head's circuit) is never evicted.
     *
     * @param queuedCircuits the circuits of the queued partitions in dispatch order, head first, no repeats
     * @return the bytes returned to the budget
     */
    long evictUnused(long bytesWanted, List<String> queuedCircuits);
}

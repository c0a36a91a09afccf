package io.proofline.ops;

import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobId;
import io.proofline.engine.JobRequest;
import io.proofline.engine.memory.KeyAdmission;
import io.proofline.engine.memory.KeyResidency;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.groth16.BackendDevice;
import io.proofline.engine.groth16.Groth16Circuits;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.snark.prover.CpuProverBackend;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;

/**
 * The dispatcher's health on a real engine whose key cache throws while evicting (so the dispatcher thread dies each
 * time it tries the head): DOWN with the failure while it is dead, UP again once a restart took.
 */
class DispatcherHealthIndicatorTest {

    /** Never admits, and throws when asked to make room: the dispatcher dies on every try. */
    static final class BrokenKeys implements KeyResidency {
        volatile boolean broken = true;

        @Override
        public long keyBytes(String circuitId) {
            return 0;
        }

        @Override
        public long missingBytes(String circuitId) {
            return 2L << 20;  // more than is free: the dispatcher asks for eviction
        }

        @Override
        public Optional<KeyAdmission> tryAdmit(String circuitId, long partitionBytes, MemoryBudget budget) {
            return broken ? Optional.empty() : NONE.tryAdmit(circuitId, partitionBytes, budget);
        }

        @Override
        public long evictUnused(long bytesWanted, List<String> queuedCircuits) {
            throw new IllegalStateException("the key cache is broken");
        }
    }

    @Test
    void downWhileTheDispatcherIsDeadUpOnceItRuns() throws Exception {
        EngineConfig config = EngineConfig.builder().budgetBytes(1 << 20).synthesisWorkers(1).finalizerThreads(1)
                .workersPerDevice(1).build();
        CpuProverBackend cpu = new CpuProverBackend();
        // The job is cancelled before it could run: the circuits are never asked for.
        Groth16PartitionProver prover = new Groth16PartitionProver(mock(Groth16Circuits.class),
                List.of(new BackendDevice("cpu", cpu)));
        BrokenKeys keys = new BrokenKeys();
        try (ProvingEngine engine = ProvingEngine.builder(config, prover).keys(keys)
                .devices(List.of(new BackendDevice("cpu", cpu))).start()) {
            DispatcherHealthIndicator indicator = new DispatcherHealthIndicator(engine);
            assertEquals(Status.UP, indicator.health().getStatus());

            JobId job = engine.submit(JobRequest.builder(new CircuitRef("c", 4, 4, 1))
                    .partition(PartitionInput.wtns(new byte[8])).build());
            Health down = awaitStatus(indicator, Status.DOWN);
            assertTrue(String.valueOf(down.getDetails().get("lastFailure")).contains("the key cache is broken"),
                    down.getDetails()::toString);
            assertTrue(down.getDetails().containsKey("lastFailureAt"));

            keys.broken = false;
            engine.cancel(job);
            Health up = awaitStatus(indicator, Status.UP);
            assertTrue((int) up.getDetails().get("restarts") >= 1, up.getDetails()::toString);
        }
    }

    private static Health awaitStatus(DispatcherHealthIndicator indicator, Status wanted) throws InterruptedException {
        long end = System.nanoTime() + 20_000_000_000L;
        Health health = indicator.health();
        while (!health.getStatus().equals(wanted)) {
            if (System.nanoTime() > end) {
                throw new AssertionError("health never became " + wanted + ": " + health);
            }
            Thread.sleep(5);
            health = indicator.health();
        }
        return health;
    }
}

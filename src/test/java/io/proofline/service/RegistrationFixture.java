package io.proofline.service;

import io.proofline.engine.BufferTracker;
import io.proofline.engine.MemoryBudget;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.unit.DataSize;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The parts of a {@link CircuitService} that the registration tests build the same way: the store and witness
 * settings (defaults but the public-signal bound) and a key cache over one data directory.
 */
final class RegistrationFixture {

    private RegistrationFixture() {
    }

    static KeyCache keyCache(DataDirectory data) {
        return new KeyCache(data, new MemoryBudget(1L << 30), new BufferTracker(), Duration.ofMinutes(1));
    }

    static CircuitService service(JobsDatabase db, DataDirectory data, KeyCache keys, TransactionTemplate tx,
                                  Path dataDir, int maxPublicSignals, RegistrationProperties registration,
                                  RegistrationSteps steps) {
        StoreProperties store = new StoreProperties(dataDir, Duration.ofDays(7), DataSize.ofGigabytes(2),
                DataSize.ofMegabytes(256), Duration.ofSeconds(5), 6, Duration.ofSeconds(1), null, 3,
                Duration.ofMinutes(2), maxPublicSignals, Duration.ofHours(1));
        WitnessProperties witness = new WitnessProperties(Duration.ofMinutes(1), Duration.ofMinutes(1),
                DataSize.ofMegabytes(256), DataSize.ofMegabytes(1));
        return new CircuitService(db.circuits, db.jobs, data, keys, tx, store, witness, registration, steps);
    }
}

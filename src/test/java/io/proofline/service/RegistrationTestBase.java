package io.proofline.service;

import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.KeyCache;
import io.proofline.service.circuits.RegistrationSteps;
import io.proofline.service.config.RegistrationProperties;
import io.proofline.service.config.StoreProperties;
import io.proofline.service.config.WitnessProperties;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.memory.MemoryBudget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.unit.DataSize;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What the registration tests set up the same way: an embedded H2 store, a data directory in a temporary folder, a
 * key cache over it, and {@link CircuitService}s with the default store and witness settings (but the public-signal
 * bound). The static helpers serve tests that build several instances over one folder.
 */
abstract class RegistrationTestBase {

    static final Path RANGE = Path.of("src/test/resources/fixtures/bn128/range_compare");

    @TempDir
    Path dir;
    JobsDatabase db;
    DataDirectory data;
    KeyCache keys;
    final Tenant alice = Tenant.apiKey("key-alice");

    @BeforeEach
    void open() {
        db = JobsDatabase.h2Pooled();
        data = new DataDirectory(dir, "test-instance");
        keys = keyCache(data);
    }

    @AfterEach
    void close() throws Exception {
        keys.close();
        db.close();
    }

    CircuitService service(TransactionTemplate tx, int maxPublicSignals, RegistrationProperties registration,
                           RegistrationSteps steps) {
        return service(db, data, keys, tx, dir, maxPublicSignals, registration, steps);
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

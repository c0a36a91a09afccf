package io.proofline.service;

import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.KeyCache;
import io.proofline.service.circuits.RegistrationSteps;
import io.proofline.service.config.RegistrationProperties;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances (services with their own locks, one database, one data directory) registering one zkey with
 * different wasm at once: nothing in either JVM orders them, only the database. The first to insert holds the id
 * while it renames its directory into place (it lingers there a moment before committing); the other's insert waits
 * for it, fails as a duplicate, and is answered 409. One row, one directory, its files the winner's.
 */
class TwoInstancesRegisteringTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgres"})
    void theDatabaseLetsOneInstancePublishAndTheOtherIsRefused(String database) throws Exception {
        try (JobsDatabase db = database.equals("h2") ? JobsDatabase.h2Pooled() : JobsDatabase.postgresPooled()) {
            CyclicBarrier validated = new CyclicBarrier(2);
            RegistrationSteps steps = step -> {
                try {
                    switch (step) {
                        case VALIDATED -> validated.await(2, TimeUnit.MINUTES);
                        case PUBLISHED -> Thread.sleep(500); // the other instance's insert meets the uncommitted row
                        default -> {
                        }
                    }
                } catch (Exception e) {
                    throw new IOException(e);
                }
            };
            List<DataDirectory> dirs = List.of(new DataDirectory(dir, "instance-a"), new DataDirectory(dir, "instance-b"));
            List<KeyCache> caches = new ArrayList<>();
            List<CircuitService> instances = new ArrayList<>();
            for (DataDirectory data : dirs) {
                KeyCache keys = RegistrationTestBase.keyCache(data);
                caches.add(keys);
                instances.add(RegistrationTestBase.service(db, data, keys, db.tx, dir, 10_000,
                        RegistrationProperties.DEFAULTS, steps));
            }
            List<byte[]> wasms = List.of(CircuitRegistrationTest.wasmVariant("a"), CircuitRegistrationTest.wasmVariant("b"));
            ExecutorService threads = Executors.newFixedThreadPool(2);
            try {
                List<Future<CircuitService.Registered>> outcomes = new ArrayList<>();
                for (int i = 0; i < 2; i++) {
                    CircuitService service = instances.get(i);
                    byte[] wasm = wasms.get(i);
                    Tenant tenant = Tenant.apiKey("key-" + i);
                    outcomes.add(threads.submit(() -> service.register(tenant,
                            CircuitRegistrationTest.upload(CircuitRegistrationTest.file("circuit.zkey")),
                            Optional.of(CircuitRegistrationTest.upload(wasm)), Optional.empty(), "range")));
                }
                CircuitService.Registered won = null;
                ConflictException refused = null;
                for (Future<CircuitService.Registered> outcome : outcomes) {
                    try {
                        won = outcome.get(3, TimeUnit.MINUTES);
                    } catch (ExecutionException e) {
                        assertThat(e.getCause()).isInstanceOf(ConflictException.class);
                        refused = (ConflictException) e.getCause();
                    }
                }
                assertThat(won).as("one registration publishes").isNotNull();
                assertThat(refused).as("the other is refused").isNotNull();
                String id = won.circuit().id();
                assertThat(refused.field()).isEqualTo("wasm");
                assertThat(refused.getMessage()).startsWith("circuit " + id + " is already registered with another wasm");

                assertThat(db.jdbc.sql("select count(*) from circuits").query(Long.class).single()).isOne();
                assertThat(db.jdbc.sql("select count(*) from circuit_access").query(Long.class).single()).isOne();
                Path circuit = dirs.getFirst().circuit(id);
                byte[] stored = Files.readAllBytes(circuit.resolve(CircuitService.WASM));
                assertThat(wasms).anySatisfy(w -> assertThat(w).isEqualTo(stored));
                assertThat(circuit.resolve(CircuitService.VKEY)).exists();
                try (Stream<Path> tmp = Files.list(dirs.getFirst().tmp())) {
                    assertThat(tmp.toList()).as("staging entries").isEmpty();
                }
            } finally {
                threads.shutdownNow();
                caches.forEach(KeyCache::close);
            }
        }
    }
}

package io.proofline.service;

import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.RegistrationSteps;
import io.proofline.service.config.RegistrationProperties;
import io.proofline.service.jobs.StoredProof;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.PublicSignalsJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.TransactionStatus;
import org.springframework.transaction.TransactionSystemException;
import org.springframework.transaction.support.TransactionTemplate;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Registration is atomic (issue #19): a circuit's row and its directory appear together or not at all, whatever step
 * fails; concurrent registrations of one zkey publish once and answer the others as later registrations; a wasm or
 * r1cs other than the registered one is a 409 and changes nothing; a circuit whose public signals cannot be stored
 * is refused.
 */
class CircuitRegistrationTest extends RegistrationTestBase {

    final Tenant bob = Tenant.apiKey("key-bob");

    CircuitService service(RegistrationSteps steps) {
        return service(steps, db.tx, 10_000);
    }

    CircuitService service(RegistrationSteps steps, TransactionTemplate tx, int maxPublicSignals) {
        return service(tx, maxPublicSignals, RegistrationProperties.DEFAULTS, steps);
    }

    static Upload upload(byte[] bytes) {
        return () -> new ByteArrayInputStream(bytes);
    }

    static byte[] file(String name) throws IOException {
        return Files.readAllBytes(RANGE.resolve(name));
    }

    /** range_compare's wasm with a custom section appended: other bytes, the same witness calculator. */
    static byte[] wasmVariant(String label) throws IOException {
        byte[] name = "proofline-test".getBytes(StandardCharsets.US_ASCII);
        byte[] payload = label.getBytes(StandardCharsets.US_ASCII);
        int size = 1 + name.length + payload.length;
        assertThat(size).as("one-byte LEB128 sizes").isLessThan(128);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(file("circuit.wasm"));
        out.write(0); // custom section
        out.write(size);
        out.write(name.length);
        out.write(name);
        out.write(payload);
        return out.toByteArray();
    }

    CircuitService.Registered register(CircuitService service, Tenant tenant, byte[] wasm, boolean r1cs)
            throws IOException {
        return service.register(tenant, upload(file("circuit.zkey")),
                Optional.ofNullable(wasm).map(CircuitRegistrationTest::upload),
                r1cs ? Optional.of(upload(file("circuit.r1cs"))) : Optional.empty(), "range");
    }

    long rows(String table) {
        return db.jdbc.sql("select count(*) from " + table).query(Long.class).single();
    }

    List<Path> entries(Path directory) throws IOException {
        try (Stream<Path> list = Files.list(directory)) {
            return list.toList();
        }
    }

    void assertNothingLeftBehind() throws IOException {
        assertThat(rows("circuits")).as("circuit rows").isZero();
        assertThat(rows("circuit_access")).as("access rows").isZero();
        assertThat(entries(data.circuits())).as("circuit directories").isEmpty();
        assertThat(entries(data.tmp())).as("staging entries in data/tmp").isEmpty();
    }

    /** The circuit's row and files agree: every file its row promises, nothing else, the wasm the given one. */
    void assertRowAndFilesAgree(String id, byte[] wasm) throws IOException {
        CircuitInfo row = db.circuits.find(id).orElseThrow();
        Path circuit = data.circuit(id);
        List<String> expected = new ArrayList<>(List.of(CircuitService.ZKEY, CircuitService.VKEY));
        if (row.hasWasm()) {
            expected.add(CircuitService.WASM);
        }
        if (row.hasR1cs()) {
            expected.add(CircuitService.R1CS);
        }
        assertThat(entries(circuit).stream().map(p -> p.getFileName().toString()))
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(Files.readAllBytes(circuit.resolve(CircuitService.ZKEY))).isEqualTo(file("circuit.zkey"));
        assertThat(Files.size(circuit.resolve(CircuitService.ZKEY))).isEqualTo(row.zkeyBytes());
        if (wasm != null) {
            assertThat(Files.readAllBytes(circuit.resolve(CircuitService.WASM))).isEqualTo(wasm);
        }
        assertThat(entries(data.tmp())).as("staging entries in data/tmp").isEmpty();
    }

    @Test
    void aRegistrationPublishesEveryFileWithItsRow() throws IOException {
        byte[] wasm = file("circuit.wasm");
        CircuitService.Registered r = register(service(RegistrationSteps.NONE), alice, wasm, true);
        assertThat(r.created()).isTrue();
        assertThat(r.circuit().hasWasm()).isTrue();
        assertThat(r.circuit().hasR1cs()).isTrue();
        assertThat(r.circuit().publicSignals()).isEqualTo(20);
        assertRowAndFilesAgree(r.circuit().id(), wasm);
        assertThat(Files.readString(data.circuit(r.circuit().id()).resolve(CircuitService.VKEY)))
                .contains("\"nPublic\": 20");
    }

    @ParameterizedTest
    @EnumSource(value = RegistrationSteps.Step.class, mode = EnumSource.Mode.EXCLUDE, names = "CHECKED")
    void aFailureAtAnyStepLeavesNothingBehindAndTheNextRegistrationSucceeds(RegistrationSteps.Step failing)
            throws IOException {
        CircuitService faulty = service(step -> {
            if (step == failing) {
                throw new IOException("injected at " + step);
            }
        });
        assertThatThrownBy(() -> register(faulty, alice, file("circuit.wasm"), true))
                .hasRootCauseMessage("injected at " + failing);
        assertNothingLeftBehind();

        CircuitService.Registered r = register(service(RegistrationSteps.NONE), alice, file("circuit.wasm"), true);
        assertThat(r.created()).isTrue();
        assertRowAndFilesAgree(r.circuit().id(), file("circuit.wasm"));
    }

    /** Transactions whose first commit (of one not already rolling back) rolls back and fails instead. */
    TransactionTemplate failingFirstCommit() {
        AtomicBoolean failNextCommit = new AtomicBoolean(true);
        PlatformTransactionManager real = db.tx.getTransactionManager();
        return new TransactionTemplate(new PlatformTransactionManager() {
            @Override
            public TransactionStatus getTransaction(TransactionDefinition definition) {
                return real.getTransaction(definition);
            }

            @Override
            public void commit(TransactionStatus status) {
                if (!status.isRollbackOnly() && failNextCommit.getAndSet(false)) {
                    real.rollback(status);
                    throw new TransactionSystemException("injected commit failure");
                }
                real.commit(status);
            }

            @Override
            public void rollback(TransactionStatus status) {
                real.rollback(status);
            }
        });
    }

    @Test
    void aFailedCommitLeavesNothingBehind() throws IOException {
        CircuitService service = service(RegistrationSteps.NONE, failingFirstCommit(), 10_000);
        assertThatThrownBy(() -> register(service, alice, file("circuit.wasm"), false))
                .hasMessage("injected commit failure");
        assertNothingLeftBehind();
        assertThat(register(service, alice, file("circuit.wasm"), false).created()).isTrue();
    }

    @Test
    void aDeletionThatFailsToCommitLeavesRowAndFilesAsTheyWere() throws IOException {
        String id = register(service(RegistrationSteps.NONE), alice, file("circuit.wasm"), true).circuit().id();
        CircuitService failing = service(RegistrationSteps.NONE, failingFirstCommit(), 10_000);
        assertThatThrownBy(() -> failing.delete(alice, id)).hasMessage("injected commit failure");
        assertRowAndFilesAgree(id, file("circuit.wasm"));
        assertThat(db.circuits.find(id, alice)).isPresent();
        failing.delete(alice, id);
        assertNothingLeftBehind();
    }

    @Test
    void concurrentRegistrationsOfOneZkeyWithDifferentWasmPublishOneAndRefuseTheOthers() throws Exception {
        int n = 4;
        // every registration has validated its parts before any publishes: the race is on the publication itself
        CyclicBarrier validated = new CyclicBarrier(n);
        CircuitService service = service(step -> {
            if (step == RegistrationSteps.Step.VALIDATED) {
                try {
                    validated.await(2, TimeUnit.MINUTES);
                } catch (Exception e) {
                    throw new IOException("the registrations did not meet", e);
                }
            }
        });
        List<byte[]> wasms = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            wasms.add(wasmVariant("variant-" + i));
        }
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(n);
        try {
            List<Future<CircuitService.Registered>> outcomes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                byte[] wasm = wasms.get(i);
                Tenant tenant = Tenant.apiKey("key-" + i);
                outcomes.add(threads.submit(() -> {
                    start.await();
                    return register(service, tenant, wasm, false);
                }));
            }
            start.countDown();
            List<CircuitService.Registered> won = new ArrayList<>();
            List<ConflictException> refused = new ArrayList<>();
            for (Future<CircuitService.Registered> outcome : outcomes) {
                try {
                    won.add(outcome.get(3, TimeUnit.MINUTES));
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(ConflictException.class);
                    refused.add((ConflictException) e.getCause());
                }
            }
            assertThat(won).hasSize(1);
            assertThat(won.getFirst().created()).isTrue();
            String id = won.getFirst().circuit().id();
            assertThat(refused).hasSize(n - 1).allSatisfy(c -> {
                assertThat(c.field()).isEqualTo("wasm");
                assertThat(c.getMessage()).contains("circuit " + id + " is already registered with another wasm");
            });
            byte[] stored = Files.readAllBytes(data.circuit(id).resolve(CircuitService.WASM));
            assertThat(wasms).anySatisfy(w -> assertThat(w).isEqualTo(stored));
            assertRowAndFilesAgree(id, stored);
            assertThat(rows("circuits")).isOne();
            assertThat(rows("circuit_access")).as("only the winner's key may use it").isOne();
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void concurrentRegistrationsOfTheSameFilesAllGetTheCircuit() throws Exception {
        int n = 3;
        CyclicBarrier validated = new CyclicBarrier(n);
        CircuitService service = service(step -> {
            if (step == RegistrationSteps.Step.VALIDATED) {
                try {
                    validated.await(2, TimeUnit.MINUTES);
                } catch (Exception e) {
                    throw new IOException("the registrations did not meet", e);
                }
            }
        });
        byte[] wasm = file("circuit.wasm");
        ExecutorService threads = Executors.newFixedThreadPool(n);
        try {
            List<Future<CircuitService.Registered>> outcomes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Tenant tenant = Tenant.apiKey("key-" + i);
                outcomes.add(threads.submit(() -> register(service, tenant, wasm, true)));
            }
            for (Future<CircuitService.Registered> outcome : outcomes) {
                assertThat(outcome.get(3, TimeUnit.MINUTES).created()).as("new to each key").isTrue();
            }
            String id = outcomes.getFirst().get().circuit().id();
            assertRowAndFilesAgree(id, wasm);
            assertThat(rows("circuit_access")).isEqualTo(n);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aRegisteredZkeyWithAnotherWasmOrR1csIsA409NamingTheCircuitAndChangesNothing() throws IOException {
        CircuitService service = service(RegistrationSteps.NONE);
        String id = register(service, alice, null, false).circuit().id();

        assertThatThrownBy(() -> register(service, alice, file("circuit.wasm"), false))
                .isInstanceOfSatisfying(ConflictException.class, c -> assertThat(c.field()).isEqualTo("wasm"))
                .hasMessageStartingWith("circuit " + id + " is already registered without a wasm");
        assertThatThrownBy(() -> register(service, bob, null, true))
                .isInstanceOfSatisfying(ConflictException.class, c -> assertThat(c.field()).isEqualTo("r1cs"))
                .hasMessageContaining("delete it and register it again");
        assertThat(db.circuits.find(id, bob)).as("a refused registration grants nothing").isEmpty();
        assertRowAndFilesAgree(id, null);
        assertThat(db.circuits.find(id).orElseThrow().hasWasm()).isFalse();

        // deleted and registered again with the wasm: the new files, under a row that says so
        service.delete(alice, id);
        assertNothingLeftBehind();
        byte[] wasm = file("circuit.wasm");
        assertThat(register(service, alice, wasm, false).created()).isTrue();
        assertRowAndFilesAgree(id, wasm);

        byte[] other = wasmVariant("other");
        assertThatThrownBy(() -> register(service, bob, other, false))
                .isInstanceOf(ConflictException.class)
                .hasMessageStartingWith("circuit " + id + " is already registered with another wasm");
        assertRowAndFilesAgree(id, wasm);

        // the same wasm, or none, is the circuit itself: 200 (and new to a key that could not use it before)
        assertThat(register(service, alice, wasm, false).created()).isFalse();
        assertThat(register(service, bob, null, false).created()).isTrue();
        assertThat(register(service, bob, wasm, false).created()).isFalse();
        assertRowAndFilesAgree(id, wasm);
    }

    @Test
    void aDirectoryWithoutARowIsReplacedAtRegistrationAndRemovedAtStart() throws IOException {
        CircuitService service = service(RegistrationSteps.NONE);
        String id = register(service, alice, null, false).circuit().id();
        service.delete(alice, id);

        // what a crash between rename and commit (or the old in-place verification key) leaves
        Path orphan = Files.createDirectories(data.circuit(id));
        Files.writeString(orphan.resolve(CircuitService.VKEY), "{\"stale\":true}");
        assertThat(register(service, alice, file("circuit.wasm"), false).created()).isTrue();
        assertRowAndFilesAgree(id, file("circuit.wasm"));
        assertThat(Files.readString(data.circuit(id).resolve(CircuitService.VKEY))).doesNotContain("stale");

        String stranger = "e".repeat(64);
        Files.writeString(Files.createDirectories(data.circuit(stranger)).resolve(CircuitService.VKEY), "{}");
        service.removeOrphanedDirectories();
        assertThat(data.circuit(stranger)).doesNotExist();
        assertRowAndFilesAgree(id, file("circuit.wasm"));
    }

    @Test
    void publicSignalsPastTheSettingOrWhatTheProofsTableHoldsAreRefusedNamingTheLimit() throws IOException {
        CircuitService strict = service(RegistrationSteps.NONE, db.tx, 19);
        assertThatThrownBy(() -> register(strict, alice, null, false))
                .isInstanceOfSatisfying(InvalidFieldException.class, e -> {
                    assertThat(e.unprocessable()).isTrue();
                    assertThat(e.field()).isEqualTo("zkey");
                })
                .hasMessage("the circuit has 20 public signals, more than the limit of 19"
                        + " (proofline.store.max-public-signals)");
        assertNothingLeftBehind();
        assertThat(register(service(RegistrationSteps.NONE, db.tx, 20), alice, null, false).created()).isTrue();
    }

    @Test
    void theStorableCountIsWhatTheProofsColumnTakes() {
        for (String curve : List.of("bn128", "bls12381")) {
            BigInteger r = SnarkCurves.byName(curve).orElseThrow().fr().modulus();
            int storable = CircuitService.storablePublicSignals(r);
            assertThat(storable).as(curve).isGreaterThan(10_000); // the default setting is within it
            db.clear();
            String job = db.queued("c".repeat(64), 1).id();
            assertThat(db.finishNow(job, io.proofline.engine.JobState.DONE, null, null,
                    List.of(new StoredProof(0, "{}", largest(r, storable))))).isTrue();
            String refused = db.queued("c".repeat(64), 1).id();
            assertThatThrownBy(() -> db.finishNow(refused, io.proofline.engine.JobState.DONE, null, null,
                    List.of(new StoredProof(0, "{}", largest(r, storable + 1)))))
                    .as("one more signal of the largest value does not fit the column")
                    .isInstanceOf(DataIntegrityViolationException.class);
        }
    }

    /** The public signals JSON of {@code n} signals of the largest value, as the prover stores it. */
    private static String largest(BigInteger modulus, int n) {
        BigInteger[] signals = new BigInteger[n];
        Arrays.fill(signals, modulus.subtract(BigInteger.ONE));
        return PublicSignalsJson.toString(signals);
    }

    @Test
    void aCircuitFromBeforeTenancyIsDeletedByTheAdminOnlyNotByAnyKey() throws IOException {
        CircuitService service = service(RegistrationSteps.NONE);
        String id = register(service, alice, null, false).circuit().id();
        // what migration V2__tenancy left for a circuit registered before keys had circuits of their own
        db.jdbc.sql("delete from circuit_access where circuit_id = ?").param(id).update();
        db.jdbc.sql("insert into circuit_access (circuit_id, principal, granted_at) values (?, ?, current_timestamp)")
                .params(id, Tenant.EVERY_KEY).update();

        for (Tenant key : List.of(alice, bob)) {
            assertThatThrownBy(() -> service.delete(key, id)).isInstanceOf(ForbiddenException.class)
                    .hasMessageContaining("registered before tenancy");
        }
        assertThat(rows("circuits")).isEqualTo(1);
        service.delete(Tenant.CONSOLE, id);
        assertNothingLeftBehind();
    }
}

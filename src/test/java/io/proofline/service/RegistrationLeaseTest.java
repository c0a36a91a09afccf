package io.proofline.service;

import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.CircuitState;
import io.proofline.service.config.RegistrationProperties;
import io.proofline.service.circuits.RegistrationSteps;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A REGISTERING circuit's check is held by a lease its instance renews every heartbeat (issue #33): while instance A
 * renews it, instance B leaves the check alone; once A stops renewing (it died: a check that never ends, no more
 * heartbeats), B takes the check over after {@code missed-heartbeats} and the circuit becomes READY without a restart
 * of A. Two services over one database and one data directory.
 */
class RegistrationLeaseTest extends RegistrationTestBase {

    private static final Duration HEARTBEAT = Duration.ofMillis(150);
    /** The store settings' missed heartbeats (6) past which a lease lapses. */
    private static final Duration LAPSE = HEARTBEAT.multipliedBy(6);

    @Test
    void aCheckWhoseInstanceStopsRenewingItsLeaseIsTakenOverByAnother() throws Exception {
        CountDownLatch stuck = new CountDownLatch(1);
        CountDownLatch never = new CountDownLatch(1);
        CircuitService a = service("instance-a", step -> {
            if (step == RegistrationSteps.Step.CHECKED) {
                stuck.countDown();
                try {
                    never.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("stopped");
                }
            }
        });
        CircuitService b = service("instance-b", RegistrationSteps.NONE);
        try {
            String id = a.register(alice, () -> new ByteArrayInputStream(zkey()), Optional.empty(), Optional.empty(),
                    "range").circuit().id();
            assertThat(stuck.await(60, TimeUnit.SECONDS)).isTrue();

            // A alive: it renews its lease, and B, looking every heartbeat, leaves the check to it
            long end = System.nanoTime() + LAPSE.multipliedBy(3).toNanos();
            while (System.nanoTime() < end) {
                a.tendLeases();
                b.tendLeases();
                Thread.sleep(HEARTBEAT.toMillis());
            }
            assertThat(db.circuits.find(id).orElseThrow().state()).isEqualTo(CircuitState.REGISTERING);
            assertThat(b.status(alice, id).progress()).as("B does not check it").isEmpty();

            // A dies: no more heartbeats; B takes the check over once the lease lapsed
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (db.circuits.find(id).orElseThrow().state() == CircuitState.REGISTERING
                    && System.nanoTime() < deadline) {
                b.tendLeases();
                Thread.sleep(HEARTBEAT.toMillis());
            }
            assertThat(db.circuits.find(id).orElseThrow().state()).isEqualTo(CircuitState.READY);
            assertThat(b.get(alice, id).id()).isEqualTo(id);
        } finally {
            never.countDown();
            a.stopChecks();
            b.stopChecks();
        }
    }

    private CircuitService service(String instance, RegistrationSteps steps) {
        return service(db, data, keys, db.tx, dir, 10_000, new RegistrationProperties(2, 1, Duration.ZERO), steps,
                instance, HEARTBEAT);
    }

    private static byte[] zkey() throws IOException {
        return Files.readAllBytes(RANGE.resolve("circuit.zkey"));
    }
}

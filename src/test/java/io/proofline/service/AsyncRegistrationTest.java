package io.proofline.service;

import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitService;
import io.proofline.service.circuits.CircuitState;
import io.proofline.service.circuits.CircuitStatus;
import io.proofline.service.circuits.RegistrationProgress;
import io.proofline.service.circuits.RegistrationSteps;
import io.proofline.service.config.RegistrationProperties;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Registration checks the key's points off the request thread: the circuit is REGISTERING (409 for jobs, its
 * progress visible) until READY; a bad point makes it FAILED naming the section and index (or, found within
 * {@code answer-within}, a 422 that leaves nothing behind); a check interrupted by a shutdown leaves it REGISTERING,
 * and the next start checks it again.
 */
class AsyncRegistrationTest extends RegistrationTestBase {

    static final int B1 = 6;

    CircuitService service(Duration answerWithin, RegistrationSteps steps) {
        return service(db.tx, 10_000, new RegistrationProperties(2, 1, answerWithin), steps);
    }

    CircuitService.Registered register(CircuitService service, byte[] zkey) {
        return service.register(alice, () -> new ByteArrayInputStream(zkey), Optional.empty(), Optional.empty(),
                "range");
    }

    static byte[] zkey() throws IOException {
        return Files.readAllBytes(RANGE.resolve("circuit.zkey"));
    }

    /** The zkey with point {@code index} of section B1 moved off the curve (y's low bit flipped: still reduced). */
    static byte[] zkeyWithBadB1Point(int index) throws IOException {
        byte[] bytes = zkey();
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int sections = b.getInt(8);
        long pos = 12;
        for (int i = 0; i < sections; i++) {
            int type = b.getInt((int) pos);
            long size = b.getLong((int) pos + 4);
            if (type == B1) {
                bytes[(int) (pos + 12 + index * 64L + 32)] ^= 1;
                return bytes;
            }
            pos += 12 + size;
        }
        throw new IllegalStateException("no B1 section");
    }

    CircuitInfo awaitEnd(CircuitService service, String id) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            CircuitInfo c = service.status(alice, id).circuit();
            if (c.state() != CircuitState.REGISTERING) {
                return c;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("circuit " + id + " still REGISTERING after 60 s");
    }

    @Test
    void aCircuitIsRegisteringWithItsProgressUntilReadyAndTakesJobsOnlyThen() throws Exception {
        CountDownLatch atChecked = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CircuitService service = service(Duration.ZERO, step -> {
            if (step == RegistrationSteps.Step.CHECKED) {
                atChecked.countDown();
                await(release);
            }
        });
        try {
            CircuitService.Registered r = register(service, zkey());
            String id = r.circuit().id();
            assertThat(r.created()).isTrue();
            assertThat(r.circuit().state()).isEqualTo(CircuitState.REGISTERING);
            assertThat(atChecked.await(60, TimeUnit.SECONDS)).isTrue();

            CircuitStatus status = service.status(alice, id);
            assertThat(status.circuit().state()).isEqualTo(CircuitState.REGISTERING);
            assertThat(status.progress()).extracting(RegistrationProgress.Section::name)
                    .containsExactly("A", "B1", "B2", "C", "H");
            assertThat(status.progress()).allSatisfy(s -> assertThat(s.checked()).isEqualTo(s.total()));
            assertThatThrownBy(() -> service.get(alice, id)).isInstanceOf(ConflictException.class)
                    .hasMessageContaining("is REGISTERING");
            // registered again meanwhile: the same circuit, not created again, still REGISTERING
            assertThat(register(service, zkey()).circuit().state()).isEqualTo(CircuitState.REGISTERING);

            release.countDown();
            assertThat(awaitEnd(service, id).state()).isEqualTo(CircuitState.READY);
            assertThat(service.get(alice, id).id()).isEqualTo(id);
            assertThat(service.status(alice, id).progress()).isEmpty();
        } finally {
            release.countDown();
            service.stopChecks();
        }
    }

    @Test
    void aBadPointFailsTheCircuitNamingSectionAndIndex() throws Exception {
        CircuitService service = service(Duration.ZERO, RegistrationSteps.NONE);
        try {
            CircuitService.Registered r = register(service, zkeyWithBadB1Point(3));
            String id = r.circuit().id();
            CircuitInfo failed = awaitEnd(service, id);
            assertThat(failed.state()).isEqualTo(CircuitState.FAILED);
            assertThat(failed.failure())
                    .isEqualTo("circuit.zkey: section 6 (B1): point 3 is not on the curve of bn254.G1");
            assertThatThrownBy(() -> service.get(alice, id)).isInstanceOf(ConflictException.class)
                    .hasMessageContaining("FAILED its check: circuit.zkey: section 6 (B1): point 3");
            assertThatThrownBy(() -> register(service, zkeyWithBadB1Point(3)))
                    .isInstanceOf(ConflictException.class).hasMessageContaining("delete it");
            service.delete(alice, id);
            assertThat(db.circuits.find(id)).isEmpty();
            assertThat(Files.exists(data.circuit(id))).isFalse();
        } finally {
            service.stopChecks();
        }
    }

    @Test
    void aBadPointFoundWithinTheAnswerTimeIsA422ThatLeavesNothingBehind() throws Exception {
        CircuitService service = service(Duration.ofMinutes(1), RegistrationSteps.NONE);
        try {
            assertThatThrownBy(() -> register(service, zkeyWithBadB1Point(2)))
                    .isInstanceOf(InvalidFieldException.class)
                    .hasMessage("circuit.zkey: section 6 (B1): point 2 is not on the curve of bn254.G1");
            assertThat(db.jdbc.sql("select count(*) from circuits").query(Long.class).single()).isZero();
            try (var list = Files.list(data.circuits())) {
                assertThat(list.toList()).isEmpty();
            }
            CircuitService.Registered good = register(service, zkey());
            assertThat(good.circuit().state()).isEqualTo(CircuitState.READY);
        } finally {
            service.stopChecks();
        }
    }

    @Test
    void aCheckInterruptedByAShutdownIsRunAgainAtTheNextStart() throws Exception {
        CountDownLatch atChecked = new CountDownLatch(1);
        CircuitService first = service(Duration.ZERO, step -> {
            if (step == RegistrationSteps.Step.CHECKED) {
                atChecked.countDown();
                await(new CountDownLatch(1)); // until the shutdown interrupts it
            }
        });
        String id = register(first, zkey()).circuit().id();
        assertThat(atChecked.await(60, TimeUnit.SECONDS)).isTrue();
        first.stopChecks();
        Thread.sleep(200);
        assertThat(db.circuits.find(id).orElseThrow().state()).isEqualTo(CircuitState.REGISTERING);

        CircuitService next = service(Duration.ZERO, RegistrationSteps.NONE);
        try {
            next.resumeChecks();
            assertThat(awaitEnd(next, id).state()).isEqualTo(CircuitState.READY);
        } finally {
            next.stopChecks();
        }
    }

    private static void await(CountDownLatch latch) throws IOException {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted at " + RegistrationSteps.Step.CHECKED);
        }
    }
}

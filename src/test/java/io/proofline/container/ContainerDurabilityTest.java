package io.proofline.container;

import io.proofline.service.DevCircuit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Stop and kill as an operator does them, on the image's volume (the embedded H2 job store in /var/lib/proofline):
 * {@code podman stop} (SIGTERM to the JVM, PID 1) mid-job lets the service drain (intake stopped, running partitions
 * given the shutdown grace, the job stored DONE or handed back) and exit by itself; {@code podman kill} (SIGKILL)
 * mid-job cuts it off. Either way the next {@code podman run} on the same volume finishes the job, and its proofs
 * verify. The job's partitions (a 2^19 domain: seconds each) are as many as the default synthesis workers, all in
 * flight when the signal comes.
 */
@Tag("container")
class ContainerDurabilityTest {

    static final int PARTITIONS = 2;
    /** Above the service's default shutdown grace (30 s), so that podman's SIGKILL never cuts the drain short. */
    static final int STOP_TIMEOUT_SECONDS = 90;

    private static Path circuit;

    @BeforeAll
    static void circuit() throws Exception {
        Podman.requireImages(Podman.IMAGE);
        circuit = DevCircuit.bn128(2000, 1 << 19);
    }

    @Test
    void stopMidJobDrainsAndTheNextRunOnTheVolumeFinishesTheJob() throws Exception {
        interruptMidJobThenRunAgain("proofline-stop-", first -> {
            long t0 = System.nanoTime();
            first.stop(STOP_TIMEOUT_SECONDS);
            long stopSeconds = (System.nanoTime() - t0) / 1_000_000_000L;
            int exit = first.exitCode();
            String log = first.logs();
            System.out.printf("container stop mid-job: exit %d after %d s%n", exit, stopSeconds);
            assertThat(exit).as("exit status after SIGTERM (143: the JVM's answer to it; 137 would be podman's "
                    + "SIGKILL after the timeout)").isIn(0, 143);
            assertThat(log).contains("shutting down: intake stopped");
            assertThat(log).doesNotContain("Database is already closed");
        });
    }

    @Test
    void killMidJobAndTheNextRunOnTheVolumeFinishesTheJob() throws Exception {
        interruptMidJobThenRunAgain("proofline-kill-", first -> {
            first.kill();
            assertThat(first.awaitExit(Duration.ofMinutes(1))).isTrue();
            assertThat(first.exitCode()).as("exit status after SIGKILL").isEqualTo(137);
        });
    }

    /** What ends the first container while its job runs (and checks how it ended). */
    private interface Interruption {
        void end(ProoflineContainer first) throws Exception;
    }

    /**
     * A job submitted to a first container on a fresh volume, {@code interruption} ending that container while the job
     * runs, then a second container on the same volume, which must finish the job with proofs that verify.
     */
    private static void interruptMidJobThenRunAgain(String prefix, Interruption interruption) throws Exception {
        String name = prefix + System.nanoTime();
        String volume = name + "-data";
        List<String> options = List.of("-v", volume + ":/var/lib/proofline", "-e", "PROOFLINE_CONSOLE_DEMO_ENABLED=false");
        try {
            String job;
            try (ProoflineContainer first = ProoflineContainer.start(name + "-1", options)) {
                first.awaitReady(Duration.ofMinutes(5));
                String circuitId = ContainerJobs.register(first.api(), circuit);
                job = ContainerJobs.submit(first.api(), circuitId, circuit, PARTITIONS);
                ContainerJobs.awaitRunning(first.api(), job, Duration.ofMinutes(2));
                interruption.end(first);
            }
            try (ProoflineContainer next = ProoflineContainer.start(name + "-2", options)) {
                next.awaitReady(Duration.ofMinutes(5));
                ContainerJobs.assertDoneAndVerified(next.api(), job, circuit, PARTITIONS, Duration.ofMinutes(10));
            }
        } finally {
            Podman.removeQuietly(List.of(name + "-1", name + "-2"), List.of(volume));
        }
    }
}

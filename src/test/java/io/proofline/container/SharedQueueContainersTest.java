package io.proofline.container;

import io.proofline.service.DevCircuit;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two Proofline containers on one PostgreSQL container (the image built from Debian's package, started with the
 * official image's environment), on a network of their own and one data volume (uploaded circuits: what the chart's
 * ReadWriteMany volume is for): both take jobs from the one queue. Jobs are submitted to
 * both; while they run, one container is killed (SIGKILL); the other finishes every job, the dead one's included
 * (its runs are taken over once their heartbeats stop), and every proof verifies.
 */
@Tag("container")
class SharedQueueContainersTest {

    static final int JOBS_PER_INSTANCE = 2;
    static final int PARTITIONS = 2;

    @Test
    void twoContainersShareTheQueueAndTheSurvivorFinishesTheKilledOnesJobs() throws Exception {
        Podman.requireImages(Podman.IMAGE, Podman.PG_IMAGE);
        Path circuit = DevCircuit.bn128(4000, 1 << 16);
        String name = "proofline-shared-" + System.nanoTime();
        String network = name + "-net";
        String postgres = name + "-pg";
        String volume = name + "-data";
        try {
            Podman.exec("network", "create", network);
            Podman.exec("run", "-d", "--name", postgres, "--network", network, "--network-alias", "postgres",
                    "-e", "POSTGRES_USER=proofline", "-e", "POSTGRES_PASSWORD=proofline", "-e", "POSTGRES_DB=proofline",
                    Podman.PG_IMAGE);
            awaitPostgres(postgres);
            List<String> options = List.of("--network", network, "-v", volume + ":/var/lib/proofline",
                    "-e", "PROOFLINE_CONSOLE_DEMO_ENABLED=false",
                    "-e", "SPRING_DATASOURCE_URL=jdbc:postgresql://postgres:5432/proofline",
                    "-e", "SPRING_DATASOURCE_USERNAME=proofline", "-e", "SPRING_DATASOURCE_PASSWORD=proofline");
            try (ProoflineContainer a = ProoflineContainer.start(name + "-a", options);
                 ProoflineContainer b = ProoflineContainer.start(name + "-b", options)) {
                a.awaitReady(Duration.ofMinutes(5));
                b.awaitReady(Duration.ofMinutes(5));
                // One registration: the circuit is in the shared store, and its key reaches the other instance.
                String circuitId = ContainerJobs.register(a.api(), circuit);
                List<String> jobs = new ArrayList<>();
                for (int j = 0; j < JOBS_PER_INSTANCE; j++) {
                    jobs.add(ContainerJobs.submit(a.api(), circuitId, circuit, PARTITIONS));
                    jobs.add(ContainerJobs.submit(b.api(), circuitId, circuit, PARTITIONS));
                }
                // Both see the whole queue: a job submitted to one is visible through the other.
                for (String job : jobs) {
                    assertThat(ContainerJobs.status(b.api(), job)).isIn("QUEUED", "RUNNING", "DONE");
                    assertThat(ContainerJobs.status(a.api(), job)).isIn("QUEUED", "RUNNING", "DONE");
                }
                ContainerJobs.awaitRunning(a.api(), jobs.get(0), Duration.ofMinutes(2));
                a.kill();
                assertThat(a.awaitExit(Duration.ofMinutes(1))).isTrue();
                Api survivor = b.api();
                for (String job : jobs) {
                    ContainerJobs.assertDoneAndVerified(survivor, job, circuit, PARTITIONS, Duration.ofMinutes(10));
                }
                System.out.printf("two containers on one PostgreSQL container: %d jobs submitted to both, %s killed, "
                        + "all DONE and verified through %s%n", jobs.size(), a.name, b.name);
            }
        } finally {
            Podman.removeQuietly(List.of(name + "-a", name + "-b", postgres), List.of(volume));
            Podman.run(Duration.ofMinutes(1), "network", "rm", "-f", network);
        }
    }

    /** pg_isready inside the container, through the server's socket, until it answers (the official image's check). */
    static void awaitPostgres(String container) throws InterruptedException {
        long end = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (System.nanoTime() < end) {
            if (Podman.run(Duration.ofSeconds(30), "exec", container, "pg_isready", "-U", "proofline", "-d",
                    "proofline").exit() == 0
                    && logs(container).contains("init process complete")) {
                return;
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException("PostgreSQL did not start: " + logs(container));
    }

    private static String logs(String container) {
        Podman.Result r = Podman.run(Duration.ofSeconds(30), "logs", container);
        return r.out() + r.err();
    }
}

package io.proofline.service.circuits;

import io.proofline.service.Tenant;
import io.proofline.service.jobs.JobPage;
import io.proofline.service.jobs.JobRecord;
import io.proofline.service.jobs.JobService;
import io.proofline.engine.JobState;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The console's demo load: each job of the burst stages its partitions from the kept witness file (no witness is
 * held on the heap between bursts) and every job proves.
 */
@SpringBootTest(properties = {
        "proofline.gpu.enabled=false",
        "proofline.console.demo.enabled=true",
        "proofline.store.polling-interval=100ms"})
@Tag("slow")
class DemoCircuitTest {

    private static Path dataDir;

    @DynamicPropertySource
    static void dataDirectory(DynamicPropertyRegistry registry) throws IOException {
        dataDir = Files.createTempDirectory("proofline-demo");
        registry.add("proofline.store.data-dir", dataDir::toString);
    }

    @Autowired
    DemoCircuit demo;
    @Autowired
    JobService jobs;

    @Test
    void aBurstStagesEachPartitionFromTheWitnessFileAndEveryJobProves() throws Exception {
        demo.prepare();
        assertThat(demo.submitBurst()).isEqualTo(DemoCircuit.JOBS);
        long witnessBytes = Files.size(dataDir.resolve("demo").resolve("witness.wtns"));

        JobPage page = jobs.list(Tenant.CONSOLE, Optional.empty(), 0, 50);
        assertThat(page.jobs()).hasSize(DemoCircuit.JOBS);
        long end = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        for (JobRecord job : page.jobs()) {
            JobService.JobView view = jobs.get(Tenant.CONSOLE, job.id());
            assertThat(view.partitions()).hasSize(DemoCircuit.PARTITIONS_PER_JOB)
                    .allSatisfy(p -> assertThat(p.bytes()).isEqualTo(witnessBytes));
            while (!jobs.get(Tenant.CONSOLE, job.id()).job().status().isTerminal() && System.nanoTime() < end) {
                Thread.sleep(100);
            }
            JobRecord finished = jobs.get(Tenant.CONSOLE, job.id()).job();
            assertThat(finished.status()).as(String.valueOf(finished.error())).isEqualTo(JobState.DONE);
        }
        try (Stream<Path> staged = Files.list(dataDir.resolve("tmp"))) {
            assertThat(staged.toList()).as("nothing left staged").isEmpty();
        }
    }
}

package io.proofline.service;

import io.proofline.Proofline;
import io.proofline.engine.memory.HeapRule;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.web.Api;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's failure, reproduced and prevented in a real memory cgroup (v1, as root): the service runs as its own
 * JVM, sized by {@link HeapRule} for the group's limit, inside a group of {@link #LIMIT_BYTES}. It registers a
 * BN254 dev circuit on a 2^18 domain with few constraints, so that a partition's a/b/c (24 MiB) dominate both its
 * memory and its proving time, and takes a burst of {@link #JOBS} × {@link #PARTITIONS} partitions with
 * {@link #SYNTHESIS_WORKERS} synthesis workers. Synthesis is fast and proving slow, so partitions pile up in front
 * of the prover unless something bounds them:
 * <ul>
 * <li>with the engine's budget (the product), every proof is done and verified, the process is never OOM-killed
 *     and the group's peak usage stays within the limit;
 * <li>with the lab's {@code BaselineAdmission} (the pre-fix design; {@link BaselineServiceMain}) the same load is
 *     OOM-killed by the kernel: exit 137, and the group counts the kill.
 * </ul>
 * The limit is the least the service starts with ({@code MemoryPlan}: the fixed part and a budget of at least 256 MiB)
 * with a declared fixed part of 100 thread stacks and a 64 MiB margin; the burst is about 1.5 × what the baseline
 * needs to pass the limit. Skipped, with the reason, where no memory cgroup can be made.
 */
@Tag("slow")
class MemoryCgroupTest {

    private static final long MIB = 1L << 20;
    static final long LIMIT_BYTES = 1024 * MIB;
    static final int CONSTRAINTS = 2000;
    static final int DOMAIN = 1 << 18;
    static final int JOBS = 4;
    static final int PARTITIONS = 8;
    static final int SYNTHESIS_WORKERS = 4;
    private static final String API_KEY = "cgroup-key";

    private static Path circuit;

    @BeforeAll
    static void circuit() throws Exception {
        MemoryCgroup.unavailableReason().ifPresent(reason -> Assumptions.abort("skipped: " + reason));
        circuit = DevCircuit.bn128(CONSTRAINTS, DOMAIN);
    }

    @Test
    void theBudgetKeepsTheServiceWithinItsCgroupAndEveryProofIsDone() throws Exception {
        try (MemoryCgroup group = MemoryCgroup.create("proofline-budget-" + System.nanoTime(), LIMIT_BYTES);
             Child service = Child.start(group, "budget", Proofline.class.getName(), "serve")) {
            String circuitId = service.register(circuit);
            List<String> jobs = service.submitBurst(circuitId);
            assertThat(jobs).hasSize(JOBS);

            var vk = VerificationKeyJson.read(circuit.resolve("verification_key.json"));
            Api api = service.api();
            for (String id : jobs) {
                JsonNode job = api.awaitJob(id, Duration.ofMinutes(15));
                assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
                JsonNode proofs = api.get("/api/v1/jobs/" + id + "/proof").json().get("proofs");
                assertThat(proofs).hasSize(PARTITIONS);
                for (JsonNode p : proofs) {
                    assertThat(Groth16Verifier.verify(vk,
                            PublicSignalsJson.parse(p.get("publicSignals").toString(), "public"),
                            ProofJson.parse(p.get("proof").toString(), "proof")).valid()).isTrue();
                }
            }
            long peakRss = service.peakRssBytes();
            assertThat(service.process.isAlive()).as("the service is still running").isTrue();
            System.out.printf("budget policy: %d proofs done, cgroup max usage %d MiB, peak RSS %d MiB, limit %d MiB,"
                            + " failcnt %d, %s%n", JOBS * PARTITIONS, group.maxUsageBytes() / MIB, peakRss / MIB,
                    LIMIT_BYTES / MIB, group.failCount(), group.oomControl());
            assertThat(group.oomKills()).as("OOM kills in the group").isZero();
            assertThat(group.maxUsageBytes()).isLessThanOrEqualTo(LIMIT_BYTES);
            assertThat(peakRss).as("peak RSS").isLessThan(LIMIT_BYTES);
            assertThat(service.log()).contains("memory: limit " + LIMIT_BYTES / MIB + " MiB (CGROUP)");
        }
    }

    @Test
    void theBaselineIsOomKilledByTheSameLoad() throws Exception {
        try (MemoryCgroup group = MemoryCgroup.create("proofline-baseline-" + System.nanoTime(), LIMIT_BYTES);
             Child service = Child.start(group, "baseline", BaselineServiceMain.class.getName())) {
            String circuitId = service.register(circuit);
            List<String> accepted = service.submitBurst(circuitId);
            // The pile-up follows the burst within seconds; proving it all would take minutes.
            boolean ended = service.process.waitFor(5, TimeUnit.MINUTES);
            System.out.printf("baseline policy: %d of %d jobs accepted, ended %s, exit %s, cgroup max usage %d MiB,"
                            + " failcnt %d, %s%n", accepted.size(), JOBS, ended,
                    ended ? service.process.exitValue() : "-", group.maxUsageBytes() / MIB, group.failCount(),
                    group.oomControl());
            assertThat(ended).as("the baseline outlived the load; see " + service.log).isTrue();
            assertThat(service.process.exitValue()).as("exit status (137: SIGKILL by the OOM killer)").isEqualTo(137);
            assertThat(group.oomKills()).as("OOM kills in the group").isEqualTo(1);
            assertThat(service.log()).contains("memory: limit " + LIMIT_BYTES / MIB + " MiB (CGROUP)");
        }
    }

    /** The service as a JVM of its own in {@code group}, sized for the group's limit by the heap rule. */
    private static final class Child implements AutoCloseable {

        final Process process;
        final Path log;
        final int port;

        private Child(Process process, Path log, int port) {
            this.process = process;
            this.log = log;
            this.port = port;
        }

        static Child start(MemoryCgroup group, String name, String... main) throws Exception {
            int port;
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            }
            Path data = Files.createDirectories(Path.of("target", "cgroup-" + name + "-" + System.nanoTime()));
            List<String> cmd = new ArrayList<>();
            cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            cmd.addAll(HeapRule.jvmOptions(group.limitBytes()));
            cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
            cmd.addAll(List.of(main));
            cmd.addAll(List.of("--server.port=" + port, "--spring.main.banner-mode=off",
                    "--proofline.security.api-keys=" + API_KEY, "--proofline.security.admin-password=pw",
                    "--proofline.console.demo.enabled=false", "--proofline.store.data-dir=" + data.toAbsolutePath(),
                    "--proofline.pipeline.synthesis-workers=" + SYNTHESIS_WORKERS,
                    "--proofline.memory.max-threads=100", "--proofline.memory.margin=64MB"));
            Path log = data.resolve("service.log");
            Child child = new Child(group.start(cmd, log), log, port);
            try {
                child.awaitReady(Duration.ofMinutes(3));
            } catch (Exception e) {
                child.close();
                throw e;
            }
            return child;
        }

        Api api() {
            return new Api(port, API_KEY);
        }

        private void awaitReady(Duration timeout) throws Exception {
            long end = System.nanoTime() + timeout.toNanos();
            Api anonymous = new Api(port, null);
            while (System.nanoTime() < end) {
                if (!process.isAlive()) {
                    throw new IllegalStateException("the service exited with " + process.exitValue() + ": " + log());
                }
                try {
                    if (anonymous.get("/actuator/health/readiness").status() == 200) {
                        return;
                    }
                } catch (IOException notYet) {
                    // still starting
                }
                Thread.sleep(250);
            }
            throw new IllegalStateException("the service did not become ready in " + timeout + "; see " + log);
        }

        String register(Path circuitDir) throws Exception {
            return api().registerCircuit(
                    Map.of("zkey", Files.readAllBytes(circuitDir.resolve("circuit.zkey"))), Map.of()).get("id").asString();
        }

        /**
         * Submits {@link #JOBS} jobs of {@link #PARTITIONS} partitions, one after the other as fast as they are
         * accepted; stops where the service is gone (the baseline may die during the burst). Returns the job ids.
         */
        List<String> submitBurst(String circuitId) throws Exception {
            String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuit.resolve("witness.wtns")));
            String partitions = String.join(",", Collections.nCopies(PARTITIONS, "{\"witness\":\"" + w + "\"}"));
            String body = "{\"circuitId\":\"%s\",\"partitions\":[%s]}".formatted(circuitId, partitions);
            List<String> ids = new ArrayList<>();
            for (int j = 0; j < JOBS; j++) {
                Api.Response r;
                try {
                    r = api().postJson("/api/v1/jobs", body);
                } catch (IOException gone) {
                    // a connection cut by the OOM killer: the process is (about to be) gone
                    if (!process.waitFor(30, TimeUnit.SECONDS)) {
                        throw gone;
                    }
                    break;
                }
                assertThat(r.status()).as(r.body()).isEqualTo(202);
                ids.add(r.json().get("id").asString());
            }
            return ids;
        }

        /** The process's high-water RSS ({@code VmHWM}). */
        long peakRssBytes() throws IOException {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(process.pid()), "status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
                }
            }
            throw new IOException("no VmHWM for " + process.pid());
        }

        String log() throws IOException {
            return Files.readString(log);
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
            process.waitFor();
        }
    }
}

package io.proofline.container;

import io.proofline.engine.memory.HeapRule;
import io.proofline.service.DevCircuit;
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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The seed's OOM replayed in a container: the image run with {@code --memory 1536m} and no other memory setting (the
 * entry point sizes the JVM from the container's cgroup with the heap rule; the service plans its budget from the same
 * limit) takes a burst of {@link #JOBS} jobs × {@link #PARTITIONS} partitions of a BN254 dev circuit on a 2^20 domain
 * with {@link #SYNTHESIS_WORKERS} synthesis workers. The circuit has few constraints, so a partition's a/b/c (96 MiB)
 * dominate its memory and its proof; synthesis is quick and proving slow, so partitions pile up in front of the
 * prover unless something bounds their bytes. (On a 2^19 domain, the first sizing, the baseline's pile of
 * 12 × 48 MiB peaked at 1026 MB in this container and was not killed: the burst must exceed the limit.)
 * <ul>
 * <li>the image as shipped: every proof is done and verified, and the container's cgroup counts no OOM kill;
 * <li>the same image, load and limit with the lab's pre-fix admission ({@code bin/proofline serve-baseline}, the lab
 *     jar mounted into the container): the kernel OOM-kills it: exit 137, and the kill is the memory cgroup's, seen
 *     as {@code State.OOMKilled}, or the container's cgroup counting it ({@code oom_kill}, watched from the host
 *     while it runs), or the kernel's log naming the container's memory cgroup (podman 4.3 with runc on a hybrid
 *     cgroup layout does not always set {@code State.OOMKilled}).
 * </ul>
 */
@Tag("container")
class ContainerMemoryLimitTest {

    private static final long MIB = 1L << 20;
    static final long LIMIT_BYTES = 1536 * MIB;
    static final int CONSTRAINTS = 2000;
    static final int DOMAIN = 1 << 20;
    static final int JOBS = 2;
    static final int PARTITIONS = 6;
    static final int SYNTHESIS_WORKERS = 6;
    private static final Path LAB_JAR = Path.of("target", "proofline-lab.jar").toAbsolutePath();

    private static Path circuit;

    @BeforeAll
    static void circuit() throws Exception {
        Podman.requireImages(Podman.IMAGE);
        circuit = DevCircuit.bn128(CONSTRAINTS, DOMAIN);
    }

    /** The options of both runs: the limit, the workers, nothing else about memory. */
    private static List<String> options(String name) {
        return new ArrayList<>(List.of("--memory", LIMIT_BYTES / MIB + "m",
                "-e", "PROOFLINE_PIPELINE_SYNTHESIS_WORKERS=" + SYNTHESIS_WORKERS,
                "-e", "PROOFLINE_CONSOLE_DEMO_ENABLED=false"));
    }

    @Test
    void theImageSizesItselfFromTheContainerLimitAndProvesTheBurst() throws Exception {
        String name = "proofline-budget-" + System.nanoTime();
        try (ProoflineContainer c = ProoflineContainer.start(name, options(name))) {
            c.awaitReady(Duration.ofMinutes(5));
            assertThat(c.logs()).contains("memory: limit " + LIMIT_BYTES / MIB + " MiB (CGROUP)");
            String cmdline = c.exec("cat", "/proc/1/cmdline").replace('\0', ' ');
            assertThat(cmdline).as("the JVM sized by the heap rule for the container's limit")
                    .contains(HeapRule.jvmOptions(LIMIT_BYTES));

            Api api = c.api();
            String circuitId = api.registerCircuit(java.util.Map.of("zkey",
                    Files.readAllBytes(circuit.resolve("circuit.zkey"))), java.util.Map.of()).get("id").asString();
            long started = System.nanoTime();
            List<String> jobs = submitBurst(api, circuitId);
            assertThat(jobs).hasSize(JOBS);
            var vk = VerificationKeyJson.read(circuit.resolve("verification_key.json"));
            for (String id : jobs) {
                JsonNode job = api.awaitJob(id, Duration.ofMinutes(20));
                assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
                JsonNode proofs = api.get("/api/v1/jobs/" + id + "/proof").json().get("proofs");
                assertThat(proofs).hasSize(PARTITIONS);
                for (JsonNode p : proofs) {
                    assertThat(Groth16Verifier.verify(vk,
                            PublicSignalsJson.parse(p.get("publicSignals").toString(), "public"),
                            ProofJson.parse(p.get("proof").toString(), "proof")).valid()).isTrue();
                }
            }
            long seconds = (System.nanoTime() - started) / 1_000_000_000L;
            assertThat(c.running()).as("the container is still running").isTrue();
            Cgroup cgroup = Cgroup.of(c);
            System.out.printf("container --memory %dm, budget policy: %d proofs done and verified in %d s, cgroup %s, "
                    + "max usage %d MiB, oom_kill %d, State.OOMKilled %s%n", LIMIT_BYTES / MIB, JOBS * PARTITIONS,
                    seconds, cgroup.version, cgroup.maxUsageBytes / MIB, cgroup.oomKills, c.oomKilled());
            assertThat(cgroup.oomKills).as("OOM kills in the container's cgroup").isZero();
            assertThat(c.oomKilled()).isFalse();
        }
    }

    @Test
    void theBaselineIsOomKilledByTheSameLoad() throws Exception {
        if (!Files.isRegularFile(LAB_JAR)) {
            Assumptions.abort("no lab jar at " + LAB_JAR + " (mvn -DskipTests package builds it)");
        }
        String name = "proofline-baseline-" + System.nanoTime();
        List<String> options = options(name);
        options.addAll(List.of("-v", LAB_JAR + ":/app/lab/proofline-lab.jar:ro",
                "-e", "PROOFLINE_LAB_JAR=/app/lab/proofline-lab.jar"));
        try (ProoflineContainer c = ProoflineContainer.start(name, options, "serve-baseline")) {
            c.awaitReady(Duration.ofMinutes(5));
            c.watchCgroup();
            assertThat(c.logs()).contains("memory: limit " + LIMIT_BYTES / MIB + " MiB (CGROUP)");
            Api api = c.api();
            String circuitId = api.registerCircuit(java.util.Map.of("zkey",
                    Files.readAllBytes(circuit.resolve("circuit.zkey"))), java.util.Map.of()).get("id").asString();
            List<String> accepted = submitBurst(api, circuitId);
            // The pile-up follows the burst within seconds; proving it all would take minutes.
            boolean ended = c.awaitExit(Duration.ofMinutes(10));
            String evidence = ended ? oomEvidence(c) : "-";
            System.out.printf("container --memory %dm, baseline policy: %d of %d jobs accepted, ended %s, exit %s, "
                            + "OOM kill seen as: %s, cgroup max usage seen %d MiB%n", LIMIT_BYTES / MIB,
                    accepted.size(), JOBS, ended, ended ? c.exitCode() : "-", evidence, c.watchedMaxUsage() / MIB);
            assertThat(ended).as("the baseline outlived the load:\n" + c.logs()).isTrue();
            assertThat(c.exitCode()).as("exit status (137: SIGKILL by the OOM killer)").isEqualTo(137);
            assertThat(evidence).as("the kill is the memory cgroup's OOM kill").isNotEqualTo("none");
        }
    }

    /** How the OOM kill shows: podman's flag, the container's cgroup counter as last watched, the kernel's log. */
    private static String oomEvidence(ProoflineContainer c) {
        List<String> seen = new ArrayList<>();
        if (c.oomKilled()) {
            seen.add("State.OOMKilled");
        }
        if (c.watchedOomKills() > 0) {
            seen.add("cgroup oom_kill " + c.watchedOomKills());
        }
        String id = Podman.inspect(c.name, "{{.Id}}");
        Podman.Result dmesg = Podman.runCommand(Duration.ofSeconds(30), null, List.of("dmesg"));
        if (dmesg.exit() == 0 && dmesg.out().lines().anyMatch(l -> l.contains("oom-kill:") && l.contains(id))) {
            seen.add("kernel log (oom_memcg of the container)");
        }
        return seen.isEmpty() ? "none" : String.join(", ", seen);
    }

    /** {@link #JOBS} jobs of {@link #PARTITIONS} partitions, as fast as they are accepted, until the service is gone. */
    private static List<String> submitBurst(Api api, String circuitId) throws Exception {
        String w = Base64.getEncoder().encodeToString(Files.readAllBytes(circuit.resolve("witness.wtns")));
        String partitions = String.join(",", Collections.nCopies(PARTITIONS, "{\"witness\":\"" + w + "\"}"));
        String body = "{\"circuitId\":\"%s\",\"partitions\":[%s]}".formatted(circuitId, partitions);
        List<String> ids = new ArrayList<>();
        for (int j = 0; j < JOBS; j++) {
            Api.Response r;
            try {
                r = api.postJson("/api/v1/jobs", body);
            } catch (IOException gone) {
                break;   // a connection cut by the OOM killer (the baseline)
            }
            assertThat(r.status()).as(r.body()).isEqualTo(202);
            ids.add(r.json().get("id").asString());
        }
        return ids;
    }

    /** The memory cgroup as the container sees it (v1 under a hybrid layout, v2 on a unified one). */
    private record Cgroup(String version, long maxUsageBytes, long oomKills) {

        static Cgroup of(ProoflineContainer c) {
            String v1 = c.exec("sh", "-c", "cat /sys/fs/cgroup/memory/memory.oom_control 2>/dev/null; "
                    + "cat /sys/fs/cgroup/memory/memory.max_usage_in_bytes 2>/dev/null; true");
            if (!v1.isBlank()) {
                String[] lines = v1.split("\n");
                return new Cgroup("v1", Long.parseLong(lines[lines.length - 1].strip()), field(v1, "oom_kill"));
            }
            String events = c.exec("cat", "/sys/fs/cgroup/memory.events");
            String peak = c.exec("sh", "-c", "cat /sys/fs/cgroup/memory.peak 2>/dev/null || echo 0");
            return new Cgroup("v2", Long.parseLong(peak.strip()), field(events, "oom_kill"));
        }

        private static long field(String text, String key) {
            Matcher m = Pattern.compile("(?m)^" + key + " (\\d+)$").matcher(text);
            if (!m.find()) {
                throw new IllegalStateException("no " + key + " in " + text);
            }
            return Long.parseLong(m.group(1));
        }
    }
}

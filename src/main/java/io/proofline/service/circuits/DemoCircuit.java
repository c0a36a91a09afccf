package io.proofline.service.circuits;

import io.proofline.service.DataDirectory;
import io.proofline.service.NotFoundException;
import io.proofline.service.Tenant;
import io.proofline.service.config.DemoProperties;
import io.proofline.service.jobs.JobService;
import io.proofline.service.jobs.JobStaging;
import io.proofline.service.jobs.JobUpload;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.Priority;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.format.ZkeyWriter;
import io.proofline.snark.setup.DevSetup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The first-run demo: at the first start (nothing under {@code <data-dir>/demo}) a small synthetic BN254 circuit is
 * generated with the {@code dev-circuit} generator (an INSECURE known-secret setup, fine for watching the pipeline)
 * and registered as {@code demo}; its satisfying witness is kept beside it, so "run demo load" can submit a burst
 * of multi-partition jobs. Generation runs in the background (a few seconds) so that start-up is not held up.
 * {@code proofline.console.demo.enabled=false} turns it off. The console's "run demo load" button asks this for the
 * burst; the console itself generates nothing.
 */
@Component
public class DemoCircuit {

    /** Large enough that a partition takes a visible moment on a CPU, small enough to generate in seconds. */
    static final int CONSTRAINTS = 4000;
    /** A fixed circuit shape, so that a restarted service finds the same circuit. */
    static final long SEED = 0x9e3779b97f4a7c15L;
    static final String NAME = "demo";
    /** The burst: enough partitions to fill the synthesis workers and the hand-off, with mixed priorities. */
    static final int JOBS = 6;
    static final int PARTITIONS_PER_JOB = 4;

    private static final Logger LOG = LoggerFactory.getLogger(DemoCircuit.class);

    private final boolean enabled;
    private final Path dir;
    private final CircuitService circuits;
    private final JobService jobs;
    private final JobStaging staging;
    private volatile Ready ready;
    private volatile String problem = "the demo circuit is still being generated; try again in a few seconds";

    private record Ready(String circuitId, Path witness) {
    }

    DemoCircuit(DemoProperties properties, DataDirectory data, CircuitService circuits, JobService jobs,
                JobStaging staging) {
        this.enabled = properties.enabled();
        this.dir = data.root().resolve("demo");
        this.circuits = circuits;
        this.jobs = jobs;
        this.staging = staging;
        if (!enabled) {
            problem = "the demo is turned off (proofline.console.demo.enabled=false)";
        }
    }

    @EventListener(ApplicationReadyEvent.class)
    void prepareInBackground() {
        if (enabled) {
            Thread.ofPlatform().name("demo-circuit").daemon().start(this::prepare);
        }
    }

    /** Finds or makes the demo circuit; idempotent. */
    synchronized void prepare() {
        if (ready != null) {
            return;
        }
        try {
            Path idFile = dir.resolve("circuit-id");
            Path witness = dir.resolve("witness.wtns");
            Optional<String> known = Files.exists(idFile) && Files.exists(witness)
                    ? Optional.of(Files.readString(idFile, StandardCharsets.US_ASCII).strip()) : Optional.empty();
            if (known.isPresent() && registered(known.get())) {
                ready = new Ready(known.get(), witness);
                return;
            }
            Files.createDirectories(dir);
            Path zkey = dir.resolve("circuit.zkey");
            long start = System.nanoTime();
            try (DevSetup.Result r = DevSetup.generate(SnarkCurves.byName("bn128").orElseThrow(), CONSTRAINTS, 2,
                    SEED)) {
                ZkeyWriter.write(r.key(), zkey);
                WtnsWriter.write(r.witness(), witness);
            }
            String id = circuits.register(Tenant.CONSOLE, () -> Files.newInputStream(zkey), Optional.empty(),
                    Optional.empty(), NAME).circuit().id();
            Files.writeString(idFile, id, StandardCharsets.US_ASCII);
            Files.delete(zkey);
            ready = new Ready(id, witness);
            LOG.info("registered the demo circuit {} ({} constraints, INSECURE dev setup) in {} ms", id, CONSTRAINTS,
                    (System.nanoTime() - start) / 1_000_000);
        } catch (IOException | RuntimeException e) {
            problem = "the demo circuit could not be prepared: " + e.getMessage();
            LOG.warn("could not prepare the demo circuit", e);
        }
    }

    private boolean registered(String id) {
        try {
            circuits.get(Tenant.CONSOLE, id);
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    /** Submits {@link #JOBS} jobs of {@link #PARTITIONS_PER_JOB} partitions each; answers how many went in. */
    public int submitBurst() {
        Ready r = ready;
        if (r == null) {
            throw new IllegalStateException(problem);
        }
        Priority[] priorities = {Priority.NORMAL, Priority.HIGH, Priority.LOW};
        int submitted = 0;
        for (int j = 0; j < JOBS; j++) {
            try (JobUpload upload = staging.open()) {
                for (int p = 0; p < PARTITIONS_PER_JOB; p++) {
                    try (InputStream in = Files.newInputStream(r.witness())) {
                        upload.stage(PartitionInput.Format.WTNS, "partitions[" + p + "]", in);
                    }
                }
                jobs.submit(Tenant.CONSOLE, new JobService.NewJob(r.circuitId(), priorities[j % priorities.length],
                        null, null, upload.partitions()));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot stage the demo witness " + r.witness(), e);
            }
            submitted++;
        }
        return submitted;
    }
}

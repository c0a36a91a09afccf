package io.proofline.engine.groth16;

import io.proofline.algebra.poly.TwiddleCache;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.JobRequest;
import io.proofline.engine.JobResult;
import io.proofline.engine.JobState;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionInput;
import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.Stage;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.setup.DevSetup;
import io.proofline.snark.verifier.PreparedVerifyingKey;
import io.proofline.witness.CircomWitnessCalculator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CPU prover's NTT twiddle table is a buffer like the others: reserved from the engine's budget, counted as
 * TWIDDLES in the RESIDENT column while cached, evicted when the head of the queue needs the memory, and given back
 * when the engine stops.
 */
class TwiddleTablesInTheBudgetTest {

    private static final int LOG = 14;

    @Test
    void theTableIsReservedTrackedEvictedUnderPressureAndGivenBack(@TempDir Path tmp) throws Exception {
        try (DevSetup.Result dev = DevSetup.generate(SnarkCurves.BN128, 200, 1, 5, 1 << LOG)) {
            ProvingKey key = dev.key();
            PreparedVerifyingKey vk = PreparedVerifyingKey.prepare(VerifyingKey.of(key));
            Groth16Circuits circuits = new Groth16Circuits() {
                public ProvingKey provingKey(String id) { return key; }
                public PreparedVerifyingKey verifyingKey(String id) { return vk; }
                public Optional<CircomWitnessCalculator> witnessCalculator(String id) { return Optional.empty(); }
                public Optional<R1cs> r1cs(String id) { return Optional.empty(); }
            };
            Path wtnsFile = tmp.resolve("w.wtns");
            WtnsWriter.write(dev.witness(), wtnsFile);
            byte[] wtns = Files.readAllBytes(wtnsFile);
            CircuitRef ref = new CircuitRef("dev", key.nVars(), key.domainSize(), key.nPublic());
            long partition = PartitionFootprint.groth16(ref).total();
            long table = TwiddleCache.tableBytes(key.curve().fr(), LOG);
            // room for one partition and the table
            long budget = partition + table;
            var prover = new Groth16PartitionProver(circuits, Map.of(CpuDevice.ID, new CpuProverBackend()));
            EngineConfig config = EngineConfig.builder().budgetBytes(budget).synthesisWorkers(1).build();
            ProvingEngine engine = ProvingEngine.builder(config, prover).devices(List.of(new CpuDevice())).start();
            try {
                JobResult first = engine.await(engine.submit(JobRequest.builder(ref)
                        .partition(PartitionInput.wtns(wtns)).verify(true).build()), Duration.ofMinutes(2));
                assertThat(first.state()).as(first.failure().map(Object::toString).orElse("")).isEqualTo(JobState.DONE);
                PipelineSnapshot after = engine.snapshot();
                assertThat(after.cell(BufferClass.TWIDDLES, Stage.RESIDENT).bytes()).isEqualTo(table);
                assertThat(after.cell(BufferClass.TWIDDLES, Stage.RESIDENT).count()).isEqualTo(1);
                assertThat(after.budget().reservedBytes()).as("the cached table stays reserved").isEqualTo(table);

                // A partition declared one variable wider does not fit beside the cached table: the dispatcher
                // evicts the table to admit it, and its prove start, finding no room for a table, computes the
                // twiddles as it goes; the proof verifies all the same.
                CircuitRef wider = new CircuitRef("dev", key.nVars() + 1, key.domainSize(), key.nPublic());
                assertThat(PartitionFootprint.groth16(wider).total() + table).isGreaterThan(budget);
                JobResult second = engine.await(engine.submit(JobRequest.builder(wider)
                        .partition(PartitionInput.wtns(wtns)).verify(true).build()), Duration.ofMinutes(2));
                assertThat(second.state()).as(second.failure().map(Object::toString).orElse(""))
                        .isEqualTo(JobState.DONE);
                PipelineSnapshot evicted = engine.snapshot();
                assertThat(evicted.bytes(BufferClass.TWIDDLES)).as("evicted, and not made again").isZero();
                assertThat(evicted.budget().reservedBytes()).isZero();
                assertThat(evicted.budget().peakReservedBytes()).isLessThanOrEqualTo(budget);

                // with room again, the next proof makes the table again
                JobResult third = engine.await(engine.submit(JobRequest.builder(ref)
                        .partition(PartitionInput.wtns(wtns)).verify(true).build()), Duration.ofMinutes(2));
                assertThat(third.state()).isEqualTo(JobState.DONE);
                assertThat(engine.snapshot().bytes(BufferClass.TWIDDLES)).isEqualTo(table);
            } finally {
                engine.close();
            }
            PipelineSnapshot closed = engine.snapshot();
            assertThat(closed.budget().reservedBytes()).as("nothing reserved once the engine stopped").isZero();
            assertThat(closed.bytes(BufferClass.TWIDDLES)).isZero();
        }
    }
}

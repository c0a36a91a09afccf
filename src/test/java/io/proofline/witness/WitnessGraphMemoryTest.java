package io.proofline.witness;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A witness graph's program lives in the block its {@link GraphMemory} gives, held while the calculator is open and
 * freed by {@link CircomWitnessCalculator#close()}; without room the wasm computes every witness; and computations
 * on many threads share one calculator (one recording, then the graph) with snarkjs's witness every time.
 */
class WitnessGraphMemoryTest {

    private static final WitnessFixture FIXTURE = WitnessFixture.named("lessthan-bls12381");

    @Test
    void theGraphLivesInItsBlockUntilTheCalculatorIsClosed() throws Exception {
        CountingMemory memory = new CountingMemory(true);
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(FIXTURE.wasm(),
                CalculatorOptions.defaults().withGraphMemory(memory));

        assertThat(calculate(calculator).engine()).as("the recording run").isEqualTo(WitnessEngine.WASM);
        assertThat(calculate(calculator).engine()).isEqualTo(WitnessEngine.GRAPH);
        assertThat(memory.allocated.get()).isEqualTo(1);
        assertThat(memory.freed.get()).isZero();

        calculator.close();
        assertThat(memory.freed.get()).isEqualTo(1);
        CircomWitness after = calculate(calculator);
        assertThat(after.engine()).isEqualTo(WitnessEngine.WASM);
        assertThat(after.toLittleEndianBytes()).isEqualTo(section2(after));
    }

    @Test
    void withoutRoomTheWasmComputesAndRecordingStopsAfterItsAttempts() throws Exception {
        CountingMemory memory = new CountingMemory(false);
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(FIXTURE.wasm(),
                CalculatorOptions.defaults().withGraphMemory(memory));

        for (int i = 0; i < GraphRecording.ATTEMPTS + 3; i++) {
            CircomWitness witness = calculate(calculator);
            assertThat(witness.engine()).isEqualTo(WitnessEngine.WASM);
            assertThat(witness.toLittleEndianBytes()).isEqualTo(section2(witness));
        }
        assertThat(memory.asked.get()).isEqualTo(GraphRecording.ATTEMPTS);
    }

    @Test
    void threadsShareOneCalculator() throws Exception {
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(FIXTURE.wasm());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<CircomWitness>> results = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                results.add(pool.submit(() -> calculate(calculator)));
            }
            int graph = 0;
            for (Future<CircomWitness> result : results) {
                CircomWitness witness = result.get();
                assertThat(witness.toLittleEndianBytes()).isEqualTo(section2(witness));
                graph += witness.engine() == WitnessEngine.GRAPH ? 1 : 0;
            }
            assertThat(graph).as("computed by the graph once recorded").isPositive();
        } finally {
            pool.shutdownNow();
            calculator.close();
        }
    }

    private static CircomWitness calculate(CircomWitnessCalculator calculator) throws Exception {
        return calculator.calculate(WitnessInput.readJson(FIXTURE.input()));
    }

    /** snarkjs's values for the fixture's input: section 2 of its {@code .wtns}. */
    private static byte[] section2(CircomWitness witness) {
        byte[] wtns = FIXTURE.wtns();
        int bytes = witness.size() * witness.n8();
        return Arrays.copyOfRange(wtns, wtns.length - bytes, wtns.length);
    }

    /** Blocks from an arena of their own, counted; or no room at all. */
    private static final class CountingMemory implements GraphMemory {

        final AtomicInteger asked = new AtomicInteger();
        final AtomicInteger allocated = new AtomicInteger();
        final AtomicInteger freed = new AtomicInteger();
        private final boolean room;

        CountingMemory(boolean room) {
            this.room = room;
        }

        @Override
        public Optional<Block> allocate(long bytes) {
            asked.incrementAndGet();
            if (!room) {
                return Optional.empty();
            }
            Arena arena = Arena.ofShared();
            MemorySegment segment = arena.allocate(bytes, 8);
            allocated.incrementAndGet();
            return Optional.of(new Block() {
                @Override
                public MemorySegment segment() {
                    return segment;
                }

                @Override
                public void close() {
                    freed.incrementAndGet();
                    arena.close();
                }
            });
        }
    }
}

package io.proofline.witness;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * Where a calculator keeps its witness graph's program: off the heap, in a block it holds until it is closed
 * ({@link CircomWitnessCalculator#close()}). The service takes each block from its memory budget; where the budget has
 * no room, the calculator records no graph and its wasm computes every witness.
 */
@FunctionalInterface
public interface GraphMemory {

    /** A block of at least {@code bytes}, 8-byte aligned, or empty where there is no room. */
    Optional<Block> allocate(long bytes);

    /** Off-heap memory held until closed. */
    interface Block extends AutoCloseable {

        MemorySegment segment();

        @Override
        void close();
    }

    /** An arena of its own per block, counted nowhere: for one's own circuits (the CLI, benchmarks, tests). */
    static GraphMemory unaccounted() {
        return bytes -> {
            Arena arena = Arena.ofShared();
            MemorySegment segment = arena.allocate(bytes, 8);
            return Optional.of(new Block() {
                @Override
                public MemorySegment segment() {
                    return segment;
                }

                @Override
                public void close() {
                    arena.close();
                }
            });
        };
    }
}

package io.proofline.engine.memory;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The witness calculators' part of the heap: every instance that may run at once × its cap fits half the heap. */
class WitnessHeapShareTest {

    private static final long MIB = 1L << 20;

    @Test
    void aCapThatFitsIsKept() {
        WitnessHeapShare share = WitnessHeapShare.of(1024 * MIB, 3, 64 * MIB);
        assertThat(share.instances()).as("one per synthesis worker and one for a registration").isEqualTo(4);
        assertThat(share.perInstanceBytes()).isEqualTo(64 * MIB);
        assertThat(share.totalBytes()).isEqualTo(256 * MIB);
        assertThat(share.lowered()).isFalse();
    }

    @Test
    void aCapThatDoesNotFitIsLoweredToAnEvenShareOfHalfTheHeapInWholePages() {
        // the default cap (1 GB) under the heap rule's largest heap (1 GiB) with 4 workers
        WitnessHeapShare share = WitnessHeapShare.of(1024 * MIB, 4, 1024 * MIB);
        assertThat(share.lowered()).isTrue();
        assertThat(share.perInstanceBytes() % WitnessHeapShare.WASM_PAGE).isZero();
        assertThat(share.totalBytes()).isLessThanOrEqualTo(1024 * MIB / WitnessHeapShare.HEAP_FRACTION);
        assertThat(share.perInstanceBytes()).isGreaterThan(512 * MIB / 5 - WitnessHeapShare.WASM_PAGE);
        assertThat(share.describe()).contains("5 witness-calculator instances").contains("lowered");
    }

    @Test
    void theShareIsAFigureOfTheFixedPartInsideTheHeapAndTheFiguresStillAddUp() {
        WitnessHeapShare share = WitnessHeapShare.of(1024 * MIB, 4, 1024 * MIB);
        FixedMemory fixed = new FixedMemory(1024 * MIB, 256 * MIB, 128 * MIB, 100 * MIB, 0, 256 * MIB,
                share.totalBytes());
        assertThat(fixed.figures()).containsEntry("witness calculators", share.totalBytes())
                .containsEntry("heap", 1024 * MIB - share.totalBytes()).doesNotContainKey("max heap");
        assertThat(fixed.figures().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(fixed.totalBytes());
        assertThat(fixed.totalBytes()).as("inside the heap, not beside it")
                .isEqualTo(new FixedMemory(1024 * MIB, 256 * MIB, 128 * MIB, 100 * MIB, 0, 256 * MIB).totalBytes());
        assertThat(fixed.describe()).contains("witness calculators");
        assertThatThrownBy(() -> new FixedMemory(256 * MIB, 0, 0, 0, 0, 0, 257 * MIB))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("max heap");
    }
}

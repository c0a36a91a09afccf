package io.proofline.service.config;

import io.proofline.engine.memory.WitnessHeapShare;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The witness calculators run under the cap of their heap share, never above the configured one. */
class WitnessPropertiesCapTest {

    private static WitnessProperties configured(DataSize maxMemory) {
        return new WitnessProperties(Duration.ofMinutes(2), Duration.ofSeconds(10), maxMemory, DataSize.ofMegabytes(1));
    }

    @Test
    void theEnginesCalculatorsRunUnderTheirShare() {
        WitnessProperties witness = configured(DataSize.ofGigabytes(1));
        WitnessHeapShare share = WitnessHeapShare.of(1L << 30, 4, DataSize.ofGigabytes(1).toBytes());
        assertThat(witness.calculatorOptions(share.perInstanceBytes()).limits().maxMemoryBytes())
                .isEqualTo(share.perInstanceBytes());
        // a smaller configured cap wins over a larger share
        assertThat(configured(DataSize.ofMegabytes(16)).calculatorOptions(share.perInstanceBytes()).limits()
                .maxMemoryBytes()).isEqualTo(16L << 20);
    }

    @Test
    void aRegistrationsCalculatorNeverTakesMoreThanTheWholeShare() {
        long whole = Runtime.getRuntime().maxMemory() / WitnessHeapShare.HEAP_FRACTION;
        assertThat(configured(DataSize.ofGigabytes(4)).calculatorOptions().limits().maxMemoryBytes())
                .isLessThanOrEqualTo(whole);
    }
}

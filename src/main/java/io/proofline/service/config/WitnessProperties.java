package io.proofline.service.config;

import io.proofline.engine.memory.WitnessHeapShare;
import io.proofline.witness.CalculatorOptions;
import io.proofline.witness.WitnessLimits;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

import java.time.Duration;

/**
 * {@code proofline.witness.*}: the sandbox of the circuits' witness calculators, which are wasm uploaded by API
 * clients ({@link WitnessLimits}).
 *
 * @param timeout     one witness computation (a partition's {@code input}); past it the partition FAILS naming it
 * @param loadTimeout running a module at registration or first use (its start function, the exports describing
 *                    the circuit); past it the registration is a 422 naming it
 * @param maxMemory   the linear memory of one running module: declaring or growing more stops it
 * @param maxLog      the characters a module may print ({@code log()}, error messages) in one computation
 */
@ConfigurationProperties("proofline.witness")
public record WitnessProperties(@DefaultValue("2m") Duration timeout, @DefaultValue("10s") Duration loadTimeout,
                         @DefaultValue("1GB") DataSize maxMemory, @DefaultValue("1MB") DataSize maxLog) {

    /**
     * The calculator options a registration loads a witness calculator with: the configured memory cap, lowered to the
     * witness calculators' whole share of the heap ({@link WitnessHeapShare}), which one instance may never pass.
     */
    public CalculatorOptions calculatorOptions() {
        return calculatorOptions(Math.min(maxMemory.toBytes(), Runtime.getRuntime().maxMemory()
                / WitnessHeapShare.HEAP_FRACTION / WitnessHeapShare.WASM_PAGE * WitnessHeapShare.WASM_PAGE));
    }

    /** The calculator options with each instance's linear memory capped at {@code maxMemoryBytes}. */
    public CalculatorOptions calculatorOptions(long maxMemoryBytes) {
        return CalculatorOptions.defaults().withLimits(new WitnessLimits(timeout, loadTimeout,
                Math.min(maxMemoryBytes, maxMemory.toBytes()), maxLog.toBytes()));
    }
}

package io.proofline.witness;

import io.proofline.witness.CalculatorOptions.ExecutionMode;
import io.proofline.witness.WitnessException.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Hostile witness calculators ({@link HostileWasm}) against the sandbox, interpreted and compiled: each fails alone
 * with {@link Reason#LIMIT} naming the limit, within its deadline, and the harmless module still computes after it.
 */
class WitnessSandboxTest {

    private static final WitnessLimits TIGHT = new WitnessLimits(Duration.ofMillis(500), Duration.ofMillis(500),
            16L << 20, 10_000);

    private static CalculatorOptions options(ExecutionMode mode) {
        return CalculatorOptions.defaults().withMode(mode).withLimits(TIGHT);
    }

    private static CircomWitness harmlessWitness(ExecutionMode mode) {
        return CircomWitnessCalculator.load(HostileWasm.harmless(), options(mode)).calculate(Map.of());
    }

    /** Compiled, as the service runs wasm (interpreted, 500 ms may end it before the log limit does). */
    @org.junit.jupiter.api.Test
    void aModuleThatLoadsForARealCircuitAndFloodsItsLogAtEveryComputationStopsAtTheLimit() {
        java.math.BigInteger r = io.proofline.algebra.bn254.Bn254.FR.modulus();
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(
                HostileWasm.printsItsMostLogThenFails(r, 300), options(ExecutionMode.COMPILED));
        assertThat(calculator.prime()).isEqualTo(r);
        assertThat(calculator.witnessSize()).isEqualTo(300);
        assertThatThrownBy(() -> calculator.calculate(Map.of()))
                .isInstanceOfSatisfying(WitnessException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.LIMIT);
                    assertThat(String.join("", e.log())).hasSizeGreaterThan((int) (TIGHT.maxLogBytes() * 9 / 10));
                });
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void theHarmlessModuleComputesInsideTheSandbox(ExecutionMode mode) {
        CircomWitness witness = harmlessWitness(mode);
        assertThat(witness.size()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aComputationThatLoopsStopsAtTheWitnessTimeout(ExecutionMode mode) {
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(HostileWasm.loopsIn("init"), options(mode));
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() -> calculator.calculate(Map.of()))
                .isInstanceOfSatisfying(WitnessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.LIMIT))
                .hasMessage("the witness computation took longer than the witness timeout of 500ms"));
        assertThat(Thread.currentThread().isInterrupted()).as("the caller's thread is not left interrupted").isFalse();
        assertThat(harmlessWitness(mode).size()).isEqualTo(1);
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void aModuleThatLoopsAtLoadStopsAtTheLoadTimeout(ExecutionMode mode) {
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(
                () -> CircomWitnessCalculator.load(HostileWasm.loopsIn("getVersion"), options(mode)))
                .isInstanceOfSatisfying(WitnessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.LIMIT))
                .hasMessage("loading the witness calculator took longer than the witness load timeout of 500ms"));
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void growingMemoryPastTheCapStopsNamingIt(ExecutionMode mode) {
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(HostileWasm.growsMemoryIn("init"), options(mode));
        assertThatThrownBy(() -> calculator.calculate(Map.of()))
                .isInstanceOfSatisfying(WitnessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.LIMIT))
                .hasMessageStartingWith("the module grew its linear memory past the limit of 16777216 bytes");
    }

    @Test
    void declaringMoreMemoryThanTheCapIsRefusedAtLoad() {
        assertThatThrownBy(() -> CircomWitnessCalculator.load(HostileWasm.declaresMemory(257), options(ExecutionMode.COMPILED)))
                .isInstanceOfSatisfying(WitnessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.LIMIT))
                .hasMessage("the module declares 16842752 bytes of linear memory, more than the limit of 16777216 bytes");
    }

    @ParameterizedTest
    @EnumSource(ExecutionMode.class)
    void floodingTheLogStopsAtTheLogLimit(ExecutionMode mode) {
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(HostileWasm.floodsTheLogIn("init"), options(mode));
        assertThatThrownBy(() -> calculator.calculate(Map.of()))
                .isInstanceOfSatisfying(WitnessException.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.LIMIT);
                    assertThat(String.join("\n", e.log()).length()).isLessThanOrEqualTo(10_000);
                })
                .hasMessageStartingWith("the circuit's log and message output passed the limit of 10000 characters");
    }

    @Test
    void aFieldSizeNoCircuitHasIsRefusedBeforeItSizesAnything() {
        assertThatThrownBy(() -> CircomWitnessCalculator.load(HostileWasm.hugeFieldSize(), options(ExecutionMode.COMPILED)))
                .isInstanceOfSatisfying(WitnessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.LIMIT))
                .hasMessage("getFieldNumLen32 answered 2147483647: not a field size (1 to 16 words)");
    }

    @Test
    void aCancelledCallerIsInterruptedNotTimedOut() throws Exception {
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(HostileWasm.loopsIn("init"),
                options(ExecutionMode.COMPILED).withLimits(WitnessLimits.defaults()));
        Thread caller = Thread.currentThread();
        Thread canceller = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(200);
            } catch (InterruptedException ignored) {
                return;
            }
            caller.interrupt();
        });
        try {
            assertThatThrownBy(() -> calculator.calculate(Map.of()))
                    .isInstanceOfSatisfying(WitnessException.class, e -> assertThat(e.reason()).isEqualTo(Reason.INTERRUPTED));
            assertThat(Thread.interrupted()).as("the caller's interrupt flag stays set").isTrue();
        } finally {
            canceller.join();
        }
    }
}

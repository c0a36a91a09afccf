package io.proofline.cli;

import io.proofline.snark.prover.DeviceBackendDouble;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code --backend}: auto takes the GPU where the device probe finds it usable, else the CPU, and says which and why;
 * cpu and gpu force one without a word. The GPU backend here is a test double whose probe answers as told.
 */
class BackendChoiceTest {

    /** A GPU backend stand-in: {@code unavailableReason()} is the device probe; it counts how often it is asked. */
    private static final class ProbedGpu extends DeviceBackendDouble {
        private final Optional<String> unavailable;
        final AtomicInteger probes = new AtomicInteger();

        ProbedGpu(Optional<String> unavailable) {
            this.unavailable = unavailable;
        }

        @Override
        public String name() {
            return "gpu";
        }

        @Override
        public Optional<String> unavailableReason() {
            probes.incrementAndGet();
            return unavailable;
        }
    }

    @Test
    void autoTakesAUsableGpuAndSaysSo() throws Exception {
        ProbedGpu gpu = new ProbedGpu(Optional.empty());

        BackendChoice choice = BackendChoice.choose("auto", () -> gpu);

        assertThat(choice.backend()).isSameAs(gpu);
        assertThat(gpu.probes).hasValue(1);
        assertThat(choice.note()).hasValueSatisfying(line -> assertThat(line)
                .startsWith("backend gpu (auto: ").contains("CUDA device").doesNotContain("\n"));
    }

    @Test
    void autoFallsBackToTheCpuWithTheProbesReason() throws Exception {
        String reason = "no GPU available: the CUDA driver library could not be loaded (libcuda.so.1: cannot open)";
        ProbedGpu gpu = new ProbedGpu(Optional.of(reason));

        BackendChoice choice = BackendChoice.choose("auto", () -> gpu);

        assertThat(choice.backend().name()).isEqualTo("cpu");
        assertThat(choice.note()).hasValue("backend cpu (auto: " + reason + ")");
    }

    @Test
    void aForcedBackendIsTakenWithoutProbingOrANote() throws Exception {
        ProbedGpu unusable = new ProbedGpu(Optional.of("no GPU available: none"));

        BackendChoice gpu = BackendChoice.choose("gpu", () -> unusable);
        BackendChoice cpu = BackendChoice.choose("cpu", () -> unusable);

        assertThat(gpu.backend()).isSameAs(unusable);
        assertThat(cpu.backend().name()).isEqualTo("cpu");
        assertThat(gpu.note()).isEmpty();
        assertThat(cpu.note()).isEmpty();
        assertThat(unusable.probes).hasValue(0);
    }

    @Test
    void autoIsTheDefaultAndAnUnknownNameIsAUsageError() {
        assertThatThrownBy(() -> BackendChoice.check(Map.of("--backend", "tpu")))
                .isInstanceOf(UsageException.class).hasMessageContaining("unknown backend 'tpu'")
                .hasMessageContaining("auto");
        assertThatThrownBy(() -> BackendChoice.choose("tpu", () -> new ProbedGpu(Optional.empty())))
                .isInstanceOf(UsageException.class);
    }

    @Test
    void withoutADeviceTheCliProvesOnTheCpuAndSaysWhy() {
        // On a machine without CUDA (CI, this dev container) the real probe answers; with a GPU this is skipped.
        BackendChoice choice;
        try {
            choice = BackendChoice.of(Map.of());
        } catch (UsageException e) {
            throw new AssertionError(e);
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(choice.backend().name().equals("cpu"), "a GPU is usable here");
        assertThat(choice.note()).hasValueSatisfying(line -> assertThat(line).startsWith("backend cpu (auto: ")
                .contains("no GPU available"));
    }
}

package io.proofline.gpu;

import io.proofline.cli.Cli;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.prover.DeviceShare;
import io.proofline.snark.prover.DeviceFaultKind;
import io.proofline.snark.prover.Groth16Prover;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.ProverBackends;
import io.proofline.snark.setup.DevSetup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** The GPU backend joins through the ServiceLoader and, with no GPU, says so instead of proving. */
class GpuProverBackendTest {

    private static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @TempDir
    Path tmp;

    @Test
    void evaluatesABCOnTheDeviceUnlessConfiguredOnTheHost() {
        assertTrue(new GpuProverBackend(GpuConfig.DEFAULTS).abcOnDevice());
        GpuProverBackend host = new GpuProverBackend(new GpuConfig(GpuConfig.B2Placement.AUTO, 17,
                java.util.Optional.empty(), 0, GpuConfig.AbcPlacement.HOST));
        assertFalse(host.abcOnDevice());
        assertFalse(host.forDevice(new DeviceShare(0, "gpu0", 1, 0)).abcOnDevice());
        assertThrows(IllegalArgumentException.class, () -> host.proveStart(null, null, AbcSource.DEVICE));
    }

    @Test
    void aCallerInterruptedBeforeProveStartStartsNoProveAndNoDeviceIsOpened() {
        // Whether or not a GPU is present: a cancelled partition's thread is interrupted, and the backend must not
        // start device work (or open the device) for it.
        GpuProverBackend gpu = new GpuProverBackend();
        try (DevSetup.Result dev = DevSetup.generate(SnarkCurves.BN128, 20, 1, 7)) {
            Thread.currentThread().interrupt();
            try {
                assertThrows(java.util.concurrent.CancellationException.class,
                        () -> gpu.proveStart(dev.key(), dev.witness(), AbcSource.DEVICE));
            } finally {
                Thread.interrupted();
            }
        }
        assertEquals(0, gpu.deviceBytes()[0]);
        assertEquals(0, gpu.deviceBytes()[1]);
    }

    @Test
    void withoutAGpuItIsADeviceThatCannotBeOpened() {
        assumeFalse(GpuPresence.here(), "this machine has a GPU");
        try (DevSetup.Result dev = DevSetup.generate(SnarkCurves.BN128, 20, 1, 7)) {
            // The engine opens the breaker of a device whose lazy open fails.
            DeviceFaultException e = assertThrows(DeviceFaultException.class,
                    () -> new GpuProverBackend().proveStart(dev.key(), dev.witness(), AbcSource.DEVICE));
            assertEquals(DeviceFaultKind.UNUSABLE, e.kind());
        }
    }

    @Test
    void isFoundByNameThroughTheServiceLoader() {
        assertTrue(ProverBackends.names().contains("gpu"), ProverBackends.names().toString());
        ProverBackend gpu = ProverBackends.byName("gpu").orElseThrow();
        assertInstanceOf(GpuProverBackend.class, gpu);
        assertEquals("gpu", gpu.name());
        // Asking for another device gives that device's backend, without opening anything.
        assertInstanceOf(GpuProverBackend.class, ((GpuProverBackend) gpu).forDevice(new DeviceShare(1, "gpu1", 1, 0)));
    }

    @Test
    void withoutAGpuItReportsWhyAndRefusesToProve() {
        assumeFalse(GpuPresence.here(), "this machine has a GPU");
        GpuProverBackend gpu = new GpuProverBackend();
        String reason = gpu.unavailableReason().orElseThrow();
        assertTrue(reason.startsWith("no GPU available: "), reason);
        try (DevSetup.Result dev = DevSetup.generate(SnarkCurves.BN128, 20, 1, 7)) {
            GpuUnavailableException e = assertThrows(GpuUnavailableException.class,
                    () -> new Groth16Prover(gpu).prove(dev.key(), dev.witness()));
            assertEquals(reason, e.getMessage());
        }
        assertEquals(0, gpu.deviceBytes()[0]);
    }

    @Test
    void proveWithBackendGpuFailsCleanly() {
        assumeFalse(GpuPresence.here(), "this machine has a GPU");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path proof = tmp.resolve("proof.json");
        int rc = Cli.run(new String[] {"prove", MUL3.resolve("circuit.zkey").toString(),
                        MUL3.resolve("witness.wtns").toString(), proof.toString(), tmp.resolve("public.json").toString(),
                        "--backend", "gpu"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String printed = err.toString(StandardCharsets.UTF_8).strip();
        assertEquals(3, rc, printed);
        assertEquals(1, printed.lines().count(), printed);
        assertTrue(printed.startsWith("no GPU available: "), printed);
        assertFalse(Files.exists(proof), "no proof is written");
    }
}

package io.proofline.engine.groth16;

import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.ConstraintRows;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.Synthesized;

import java.lang.foreign.Arena;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A test double of a device's {@link ProverBackend}: its own {@link CpuProverBackend} underneath, a hook before prove
 * start (to block, or to throw a {@code DeviceFaultException} as a CUDA error would), and a record of the pending
 * proofs it started and finished, so a test can see a proof finished by a backend that did not start it. Made with
 * {@code abcOnDevice}, it stands for a GPU backend that evaluates a/b/c itself (with {@link ConstraintRows}' host
 * evaluation, in memory of its own) and refuses a/b/c from the host.
 */
final class ScriptedBackend implements ProverBackend {

    @FunctionalInterface
    interface Hook {
        void run() throws InterruptedException;
    }

    private final CpuProverBackend cpu = new CpuProverBackend();
    private final String name;
    private final boolean abcOnDevice;
    volatile Hook beforeStart = () -> { };
    final List<PendingProof> started = new CopyOnWriteArrayList<>();
    final List<PendingProof> finishedForeign = new CopyOnWriteArrayList<>();

    ScriptedBackend(String name) {
        this(name, false);
    }

    ScriptedBackend(String name, boolean abcOnDevice) {
        this.name = name;
        this.abcOnDevice = abcOnDevice;
    }

    @Override
    public boolean abcOnDevice() {
        return abcOnDevice;
    }

    @Override
    public String name() {
        return name;
    }

    /** Evaluates a/b/c itself where made {@code abcOnDevice}, and refuses them from the host there (and vice versa). */
    @Override
    public PendingProof proveStart(ProvingKey key, Witness witness, AbcSource abc) {
        if (abcOnDevice != (abc instanceof AbcSource.OnDevice)) {
            throw new IllegalStateException(name + (abcOnDevice ? " evaluates a/b/c itself but was given them"
                    : " reads a/b/c from the host but was asked to evaluate them"));
        }
        if (abc instanceof AbcSource.Host host) {
            return start(key, witness, host.vectorsFor(key));
        }
        try (ConstraintRows rows = ConstraintRows.of(key); Arena own = Arena.ofShared()) {
            return start(key, witness, rows.evaluate(witness, bytes -> own.allocate(bytes, 8)));
        }
    }

    private PendingProof start(ProvingKey key, Witness witness, Synthesized abc) {
        try {
            beforeStart.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        PendingProof pending = cpu.proveStart(key, witness, AbcSource.host(abc));
        started.add(pending);
        return pending;
    }

    @Override
    public Proof proveFinish(PendingProof pending) {
        if (started.stream().noneMatch(p -> p == pending)) {
            finishedForeign.add(pending);
        }
        return cpu.proveFinish(pending);
    }
}

package io.proofline.engine;

import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.memory.BufferAllocator;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.memory.OffHeapBuffer;
import io.proofline.engine.memory.PartitionFootprint;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A controllable {@link PartitionProver}: allocates the buffers a Groth16 partition of the circuit would,
 * writes into them, and runs a test hook at each step (to block on a {@link Gate}, throw, or fault a device).
 */
final class FakeProver implements PartitionProver<FakeProver.Synthesized, FakeProver.Pending> {

    @FunctionalInterface
    interface Hook {
        Hook NONE = (work, device) -> { };

        void at(PartitionWork work, ProvingDevice device) throws Exception;
    }

    record Synthesized(PartitionWork work, OffHeapBuffer witness, OffHeapBuffer abc) {
    }

    record Pending(PartitionWork work, ProvingDevice device, OffHeapBuffer pending) {
    }

    volatile Hook onSynthesize = Hook.NONE;
    volatile Hook onProveStart = Hook.NONE;
    volatile Hook onProveFinish = Hook.NONE;
    volatile Hook onVerify = Hook.NONE;
    volatile boolean proofsValid = true;
    /** Bytes of ABC to allocate beyond the footprint (an adapter whose estimate is wrong). */
    volatile long extraAbcBytes;
    final List<String> synthesisOrder = new CopyOnWriteArrayList<>();
    final List<String> deviceMismatches = new CopyOnWriteArrayList<>();
    private final Map<ProofOutput, PartitionWork> provedWork = new ConcurrentHashMap<>();

    static String name(PartitionWork work) {
        return work.job() + "#" + work.partition();
    }

    @Override
    public PartitionFootprint footprint(CircuitRef circuit) {
        return PartitionFootprint.groth16(circuit);
    }

    @Override
    public Synthesized synthesize(PartitionWork work, BufferAllocator allocator) throws Exception {
        synthesisOrder.add(name(work));
        CircuitRef c = work.circuit();
        OffHeapBuffer witness = allocator.allocate(BufferClass.WITNESS, c.variables() * PartitionFootprint.SCALAR_BYTES);
        witness.segment().set(ValueLayout.JAVA_LONG, 0, 1L);
        onSynthesize.at(work, null);
        OffHeapBuffer abc = allocator.allocate(BufferClass.ABC,
                PartitionFootprint.ABC_VECTORS * c.domainSize() * PartitionFootprint.SCALAR_BYTES + extraAbcBytes);
        abc.segment().fill((byte) work.partition());
        return new Synthesized(work, witness, abc);
    }

    @Override
    public Pending proveStart(ProvingDevice device, Synthesized s, BufferAllocator allocator) throws Exception {
        if (s.abc().isClosed() || s.witness().isClosed()) {
            throw new IllegalStateException("buffers freed before prove start");
        }
        OffHeapBuffer pending = allocator.allocate(BufferClass.PENDING, PartitionFootprint.PENDING_FIXED_BYTES);
        pending.segment().set(ValueLayout.JAVA_LONG, 0, s.abc().segment().get(ValueLayout.JAVA_LONG, 0));
        onProveStart.at(s.work(), device);
        return new Pending(s.work(), device, pending);
    }

    @Override
    public ProofOutput proveFinish(ProvingDevice device, Pending p) throws Exception {
        if (device != p.device()) {
            deviceMismatches.add(name(p.work()) + ": started on " + p.device().id() + ", finished on " + device.id());
        }
        if (p.pending().isClosed()) {
            throw new IllegalStateException("pending buffer freed before finish");
        }
        onProveFinish.at(p.work(), device);
        ProofOutput proof = new ProofOutput("{\"proof\":\"" + name(p.work()) + "\"}", "[\"" + p.work().partition() + "\"]");
        provedWork.put(proof, p.work());
        return proof;
    }

    @Override
    public boolean verify(CircuitRef circuit, ProofOutput proof) throws Exception {
        onVerify.at(provedWork.remove(proof), null);
        return proofsValid;
    }
}

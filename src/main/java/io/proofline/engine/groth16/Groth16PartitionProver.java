package io.proofline.engine.groth16;

import io.proofline.engine.memory.BufferAllocator;
import io.proofline.engine.memory.BufferClass;
import io.proofline.engine.CircuitRef;
import io.proofline.snark.prover.DeviceCapacityException;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.engine.memory.OffHeapBuffer;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionProver;
import io.proofline.engine.PartitionWork;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.snark.Proof;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.R1cs;
import io.proofline.snark.Witness;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.prover.AbcSource;
import io.proofline.snark.prover.PendingProof;
import io.proofline.snark.prover.ProverBackend;
import io.proofline.snark.prover.Synthesis;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.witness.CircomWitnessCalculator;
import io.proofline.witness.WitnessException;
import io.proofline.witness.InputJsonReader;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * The engine's {@link PartitionProver} port on the snark package's Groth16 prover: synthesis writes the witness
 * and a/b/c into the engine's tracked off-heap buffers, {@link ProverBackend#proveStart} runs on the backend of
 * the device the engine picked, {@link ProverBackend#proveFinish} assembles, and verification is the pairing
 * check of {@link Groth16Verifier}.
 *
 * <p>When a backend evaluates a/b/c on its device ({@link ProverBackend#abcOnDevice()}, the GPU backend by default),
 * partitions leave them out: the footprint is the witness and the pending proof, synthesis computes and checks the
 * witness only, and prove start on such a device evaluates a/b/c there. A device whose backend reads a/b/c from the
 * host (the CPU fallback beside GPUs) has them evaluated in prove start, into ABC buffers the engine reserves then
 * ({@link #lateAbcBytes}).
 */
public final class Groth16PartitionProver implements PartitionProver<SynthesizedPartition, StartedProof> {

    private final Groth16Circuits circuits;
    private final Map<String, ProverBackend> backends;
    /** Whether a/b/c are left out of synthesis: some backend evaluates them on its device. */
    private final boolean abcOnDevices;

    /**
     * @param backends the backend that runs prove start and finish for each device id the engine has
     */
    public Groth16PartitionProver(Groth16Circuits circuits, Map<String, ProverBackend> backends) {
        this.circuits = Objects.requireNonNull(circuits, "circuits");
        this.backends = Map.copyOf(backends);
        this.abcOnDevices = backends.values().stream().anyMatch(ProverBackend::abcOnDevice);
    }

    /** The adapter for {@code devices}, each with its own backend instance. */
    public Groth16PartitionProver(Groth16Circuits circuits, List<BackendDevice> devices) {
        this(circuits, byId(devices));
    }

    private static Map<String, ProverBackend> byId(List<BackendDevice> devices) {
        Map<String, ProverBackend> map = new LinkedHashMap<>();
        for (BackendDevice d : devices) {
            if (map.put(d.id(), d.backend()) != null) {
                throw new IllegalArgumentException("duplicate device id " + d.id());
            }
        }
        return map;
    }

    @Override
    public PartitionFootprint footprint(CircuitRef circuit) {
        PartitionFootprint full = PartitionFootprint.groth16(circuit);
        return abcOnDevices ? new PartitionFootprint(full.witness(), 0, full.pending()) : full;
    }

    @Override
    public long lateAbcBytes(ProvingDevice device, CircuitRef circuit) {
        return abcOnDevices && !backend(device).abcOnDevice() ? PartitionFootprint.groth16(circuit).abc() : 0;
    }

    @Override
    public SynthesizedPartition synthesize(PartitionWork work, BufferAllocator allocator) throws Exception {
        String circuitId = work.circuit().id();
        ProvingKey key = circuits.provingKey(circuitId);
        Witness witness = switch (work.input().format()) {
            case WTNS -> uploadedWitness(work, key, allocator);
            case INPUT_JSON -> computedWitness(work, key, allocator);
        };
        if (!witness.value(0).equals(BigInteger.ONE)) {
            throw new WitnessRejectedException("partition " + work.partition() + ": witness value 0 is "
                    + witness.value(0) + ", must be 1");
        }
        checkConstraints(work, witness);
        if (abcOnDevices) {
            return new SynthesizedPartition(key, witness, null);
        }
        if (Thread.interrupted()) {
            throw new InterruptedException("cancelled before evaluating a, b, c");
        }
        return new SynthesizedPartition(key, witness, hostAbc(key, witness, allocator));
    }

    @Override
    public StartedProof proveStart(ProvingDevice device, SynthesizedPartition synthesized, BufferAllocator allocator)
            throws DeviceFaultException, DeviceCapacityException {
        ProverBackend backend = backend(device);
        ProvingKey key = synthesized.key();
        Witness witness = synthesized.witness();
        try {
            AbcSource abc = backend.abcOnDevice() ? AbcSource.DEVICE : AbcSource.host(
                    synthesized.abc() != null ? synthesized.abc() : hostAbc(key, witness, allocator));
            return new StartedProof(device.id(), backend.proveStart(key, witness, abc));
        } catch (DeviceFaultException e) {
            throw named(device, e);
        } catch (DeviceCapacityException e) {
            throw new DeviceCapacityException("device " + device.id() + ": " + e.getMessage(), e, e.everFits());
        }
    }

    /** The backend's fault, of the same kind, with the engine's name for its device first in the message. */
    static DeviceFaultException named(ProvingDevice device, DeviceFaultException e) {
        return new DeviceFaultException("device " + device.id() + ": " + e.getMessage(), e, e.kind());
    }

    @Override
    public ProofOutput proveFinish(ProvingDevice device, StartedProof started) throws DeviceFaultException {
        if (!started.deviceId().equals(device.id())) {
            throw new IllegalStateException("a proof started on " + started.deviceId() + " cannot be finished on "
                    + device.id());
        }
        PendingProof pending = started.pending();
        Proof proof;
        try {
            proof = backend(device).proveFinish(pending);
        } catch (DeviceFaultException e) {
            throw named(device, e);
        }
        BigInteger[] publicSignals = pending.witness().publicSignals(pending.key().nPublic());
        return new ProofOutput(ProofJson.toString(proof), PublicSignalsJson.toString(publicSignals));
    }

    @Override
    public boolean verify(CircuitRef circuit, ProofOutput proof) throws FormatException {
        Proof parsed = ProofJson.parse(proof.proofJson(), "proof");
        BigInteger[] signals = PublicSignalsJson.parse(proof.publicSignalsJson(), "publicSignals");
        return Groth16Verifier.verify(circuits.verifyingKey(circuit.id()), signals, parsed).valid();
    }

    /** a/b/c on the host, into the partition's ABC buffers. */
    private static Synthesized hostAbc(ProvingKey key, Witness witness, BufferAllocator allocator) {
        return Synthesis.evaluate(key, witness, bytes -> allocator.allocate(BufferClass.ABC, bytes).segment());
    }

    private ProverBackend backend(ProvingDevice device) {
        ProverBackend backend = backends.get(device.id());
        if (backend == null) {
            throw new IllegalStateException("no prover backend for device " + device.id());
        }
        return backend;
    }

    /**
     * Checks the {@code .wtns} upload in place (a stored one mapped, not read onto the heap) and copies its values
     * into the partition's WITNESS buffer: the one copy of the witness the partition holds.
     */
    private static Witness uploadedWitness(PartitionWork work, ProvingKey key, BufferAllocator allocator)
            throws WitnessRejectedException, IOException {
        String name = "partition " + work.partition() + " witness";
        try (Arena mapping = Arena.ofShared();
             Witness parsed = WtnsReader.view(work.input().segment(mapping), name)) {
            WtnsReader.requireFits(parsed, key, name);
            OffHeapBuffer buffer = allocator.allocate(BufferClass.WITNESS, parsed.byteSize());
            MemorySegment values = buffer.segment().asSlice(0, parsed.byteSize());
            values.copyFrom(parsed.canonical());
            return new Witness(parsed.curve(), parsed.size(), values, null);
        } catch (FormatException e) {
            throw new WitnessRejectedException(e.getMessage(), e);
        }
    }

    /**
     * Runs the circuit's witness calculator on the {@code input.json} upload, streamed from its file: the input is
     * flattened into the partition's WITNESS buffer, which the witness then fills; neither is ever on the heap.
     */
    private Witness computedWitness(PartitionWork work, ProvingKey key, BufferAllocator allocator)
            throws WitnessRejectedException {
        CircomWitnessCalculator calculator = circuits.witnessCalculator(work.circuit().id())
                .orElseThrow(() -> new WitnessRejectedException("circuit " + work.circuit().id()
                        + " has no witness calculator (.wasm): submit .wtns witnesses"));
        if (!calculator.prime().equals(key.curve().fr().modulus()) || calculator.witnessSize() != key.nVars()) {
            throw new WitnessRejectedException("the witness calculator computes " + calculator.witnessSize()
                    + " values mod " + calculator.prime() + ", the key expects " + key.nVars() + " over " + key.curve());
        }
        long bytes = (long) calculator.witnessSize() * calculator.n8();
        OffHeapBuffer buffer = allocator.allocate(BufferClass.WITNESS, bytes);
        MemorySegment segment = buffer.segment().asSlice(0, bytes);
        try {
            calculator.calculateInto(InputJsonReader.source(() -> InputJsonReader.parser(work.input().open())),
                    segment);
        } catch (WitnessException | IllegalArgumentException e) {
            throw new WitnessRejectedException("partition " + work.partition() + " input: " + e.getMessage(), e);
        }
        return new Witness(key.curve(), calculator.witnessSize(), segment, null);
    }

    private void checkConstraints(PartitionWork work, Witness witness) throws WitnessRejectedException {
        R1cs r1cs = circuits.r1cs(work.circuit().id()).orElse(null);
        if (r1cs == null) {
            return;
        }
        OptionalInt failed = r1cs.firstUnsatisfied(witness);
        if (failed.isPresent()) {
            throw new WitnessRejectedException("partition " + work.partition() + ": constraint "
                    + failed.getAsInt() + " is not satisfied: " + r1cs.describe(failed.getAsInt(), witness));
        }
    }
}

package io.proofline.gpu.selftest;

import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.internal.DeviceBuffer;
import io.proofline.gpu.internal.DeviceRows;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.internal.GpuStream;
import io.proofline.gpu.internal.KernelModule;
import io.proofline.snark.Coefficients;
import io.proofline.snark.Witness;
import io.proofline.snark.prover.ConstraintRows;
import io.proofline.snark.prover.Synthesized;
import io.proofline.snark.setup.RandomCoefficients;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * a = A·w, b = B·w, c = a∘b on the device ({@link DeviceRows}, native-cuda/abc/abc.cuh) against
 * {@link ConstraintRows}' host evaluation (itself tested against the CPU prover's synthesis and BigIntegers), on random
 * rows from {@link RandomCoefficients} — empty rows, duplicate signals, one long row that takes the warp-per-row
 * kernel, records in shuffled order — and a random witness with zeros. The output buffers are filled with a non-field
 * pattern first, so a row the kernels never write shows as a mismatch.
 */
public final class AbcCheck implements AutoCloseable {

    /** What the check found: whether a, b and c all match, and a line saying so or where they first differ. */
    public record Outcome(boolean ok, String detail) {
    }

    private final Arena arena = Arena.ofShared();
    private final ConstraintRows host;
    private final DeviceRows device;
    private final Synthesized expected;
    private final DeviceBuffer witness;
    private final DeviceBuffer[] abc = new DeviceBuffer[3];
    private final GpuCurve curve;

    /** Random rows and witness of {@code rows} rows over {@code nVars} signals, uploaded; host result computed. */
    public AbcCheck(GpuCurve curve, int rows, int nVars, long seed) {
        this.curve = curve;
        PrimeField fr = curve.fr();
        try {
            Coefficients coefficients = RandomCoefficients.generate(fr, arena, rows, nVars, seed, true);
            this.host = ConstraintRows.of(coefficients, rows, nVars);
            MemorySegment values = arena.allocate((long) nVars * fr.bytes(), 16)
                    .copyFrom(MemorySegment.ofArray(RandomCoefficients.witness(fr, nVars, seed + 1)));
            Witness w = new Witness(curve.snarkCurve(), nVars, values, null);
            this.expected = host.evaluate(w, bytes -> arena.allocate(bytes, 16));
            this.device = DeviceRows.upload(host);
            this.witness = DeviceBuffer.allocate(values.byteSize());
            witness.upload(values);
            MemorySegment garbage = arena.allocate((long) rows * fr.bytes(), 16).fill((byte) 0xA5);
            for (int v = 0; v < 3; v++) {
                abc[v] = DeviceBuffer.allocate(garbage.byteSize());
                abc[v].upload(garbage);
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Rows of the long-row kernel, entries in all: for the check's size column. */
    public String shape() {
        return host.rows() + " rows, " + host.entries() + " entries, " + device.longRowCount() + " long";
    }

    /** Queues the evaluation (what the lab times). */
    public void enqueue(KernelModule module, GpuStream stream) {
        device.evaluate(module, curve, witness, abc[0], abc[1], abc[2], stream);
    }

    /** Runs the evaluation once and compares a, b, c with the host's, element by element. */
    public Outcome run(KernelModule module, GpuStream stream) {
        enqueue(module, stream);
        stream.synchronize();
        MemorySegment[] want = {expected.a().segment(), expected.b().segment(), expected.c().segment()};
        StringBuilder differs = new StringBuilder();
        for (int v = 0; v < 3; v++) {
            long[] got = new long[Math.toIntExact(want[v].byteSize() / 8)];
            abc[v].download(got);
            String mismatch = firstMismatch(got, want[v].toArray(ValueLayout.JAVA_LONG));
            if (mismatch != null) {
                differs.append(differs.isEmpty() ? "" : "; ").append("abc".charAt(v)).append(' ').append(mismatch);
            }
        }
        return differs.isEmpty()
                ? new Outcome(true, "a, b, c equal to ConstraintRows' host evaluation (" + shape() + ")")
                : new Outcome(false, differs + " (" + shape() + ")");
    }

    /** "differs at N rows, first at row i: got …, want …", or null when equal. */
    private String firstMismatch(long[] got, long[] want) {
        int limbs = curve.fr().limbs();
        int bad = 0;
        int first = -1;
        for (int row = 0; row < want.length / limbs; row++) {
            if (!java.util.Arrays.equals(got, row * limbs, (row + 1) * limbs, want, row * limbs, (row + 1) * limbs)) {
                bad++;
                first = first < 0 ? row : first;
            }
        }
        if (bad == 0) {
            return null;
        }
        return "differs at " + bad + " rows, first at row " + first + " (" + (host.end(first, Coefficients.B)
                - host.start(first, Coefficients.A)) + " entries): got " + hex(got, first * limbs, limbs) + ", want "
                + hex(want, first * limbs, limbs);
    }

    private static String hex(long[] limbs, int from, int count) {
        StringBuilder s = new StringBuilder("0x");
        for (int i = from + count - 1; i >= from; i--) {
            s.append(String.format("%016x", limbs[i]));
        }
        return s.toString();
    }

    @Override
    public void close() {
        for (DeviceBuffer b : abc) {
            if (b != null) {
                b.close();
            }
        }
        if (witness != null) {
            witness.close();
        }
        if (device != null) {
            device.close();
        }
        if (host != null) {
            host.close();
        }
        arena.close();
    }
}

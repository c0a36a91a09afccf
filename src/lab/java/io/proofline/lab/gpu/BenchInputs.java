package io.proofline.lab.gpu;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.internal.DeviceBuffer;
import io.proofline.gpu.GpuCurve;
import io.proofline.gpu.internal.GpuStream;
import io.proofline.gpu.selftest.MsmInput;
import io.proofline.gpu.selftest.ReferenceG1;
import io.proofline.gpu.selftest.ScalarMix;
import io.proofline.snark.setup.WitnessDistribution;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.IntStream;

/**
 * Device-resident benchmark inputs made quickly on the host. Timing does not depend on the points being distinct, so
 * an MSM's 2^24 points are {@value MsmInput#DISTINCT_POINTS} points of known discrete log ({@link MsmInput}) tiled on
 * the device by doubling copies; the scalars are uniform in Fr, drawn on every core. Because the logs are known, the
 * result is still checkable at the cost of n additions and 2^14 multiplications: Σ sᵢ·k_{i mod B} = Σ_j (Σ_{i ≡ j} sᵢ)·k_j.
 */
final class BenchInputs {

    /** Scalars drawn per parallel task. */
    private static final int CHUNK = 1 << 16;

    private BenchInputs() {
    }

    /** An MSM's inputs on the device, and (Σ sᵢ·kᵢ mod r), the discrete log of the right answer. */
    record Msm(DeviceBuffer points, DeviceBuffer scalars, BigInteger expectedLog) implements AutoCloseable {
        @Override
        public void close() {
            points.close();
            scalars.close();
        }
    }

    static Msm msm(GpuCurve curve, int n, WitnessDistribution witness, SplittableRandom random, GpuStream stream) {
        ReferenceG1 g1 = ReferenceG1.of(curve);
        PrimeField fr = curve.fr();
        int distinct = Math.min(n, MsmInput.DISTINCT_POINTS);
        MsmInput base = MsmInput.create(g1, fr, distinct, ScalarMix.UNIFORM, true, random);
        long affine = curve.affineBytes();
        DeviceBuffer points = DeviceBuffer.allocate(n * affine);
        DeviceBuffer scalars = null;
        try {
            points.upload(base.points());
            for (long have = distinct; have < n; have *= 2) {
                long copy = Math.min(have, n - have);
                points.copyFromAsync(points, copy * affine, have * affine, stream);
            }
            stream.synchronize();
            try (Arena arena = Arena.ofShared()) {
                Scalars drawn = Scalars.draw(fr, n, witness, random, distinct, arena);
                scalars = upload(drawn.values());
                return new Msm(points, scalars, drawn.expectedLog(fr, base.logs()));
            }
        } catch (RuntimeException e) {
            points.close();
            if (scalars != null) {
                scalars.close();
            }
            throw e;
        }
    }

    /** A G2 MSM's inputs on the device and its answer Σ sᵢ·Pᵢ, affine (all zeros for infinity). */
    record G2Msm(DeviceBuffer points, DeviceBuffer scalars, long[] expected) implements AutoCloseable {
        @Override
        public void close() {
            points.close();
            scalars.close();
        }
    }

    /**
     * The host half of a G2 MSM input: {@code distinct} random multiples k_j·G2 (host scalar multiplications are slow
     * on G2), n uniform scalars in {@code arena}, and the answer Σ sᵢ·P_{i mod distinct} = (Σ sᵢ·k_{i mod distinct})·G2,
     * one more scalar multiplication.
     *
     * @param base     the distinct points, affine x‖y over Fq2 (Montgomery limbs); point i of the input is
     *                 base[i mod distinct]
     * @param scalars  n canonical scalars
     * @param expected the answer, affine (all zeros for infinity)
     */
    record G2Host(long[] base, int distinct, MemorySegment scalars, long[] expected) {

        static G2Host draw(GpuCurve curve, int n, int distinct, WitnessDistribution witness, SplittableRandom random,
                           Arena arena) {
            CurveGroup g2 = curve.snarkCurve().g2();
            CurveOps ops = g2.newOps();
            PrimeField fr = curve.fr();
            int pw = g2.affineWidth();
            long[] base = new long[distinct * pw];
            long[] logs = new long[distinct * fr.limbs()];
            for (int j = 0; j < distinct; j++) {
                long[] k = fr.random(random);
                System.arraycopy(k, 0, logs, j * fr.limbs(), fr.limbs());
                System.arraycopy(ops.mulAffine(g2.generatorCopy(), fr.toBigInteger(k)), 0, base, j * pw, pw);
            }
            Scalars drawn = Scalars.draw(fr, n, witness, random, distinct, arena);
            long[] expected = ops.mulAffine(g2.generatorCopy(), drawn.expectedLog(fr, logs));
            return new G2Host(base, distinct, drawn.values(), expected);
        }
    }

    /** {@link G2Host} on the device: its distinct points tiled to n by doubling copies, and its scalars. */
    static G2Msm g2Msm(GpuCurve curve, int n, WitnessDistribution witness, SplittableRandom random,
                       GpuStream stream) {
        long affine = 8L * curve.snarkCurve().g2().affineWidth();
        try (Arena arena = Arena.ofShared()) {
            G2Host host = G2Host.draw(curve, n, Math.min(n, G2_DISTINCT), witness, random, arena);
            DeviceBuffer points = DeviceBuffer.allocate(n * affine);
            DeviceBuffer scalars = null;
            try {
                points.upload(host.base());
                for (long have = host.distinct(); have < n; have *= 2) {
                    long copy = Math.min(have, n - have);
                    points.copyFromAsync(points, copy * affine, have * affine, stream);
                }
                stream.synchronize();
                scalars = upload(host.scalars());
                return new G2Msm(points, scalars, host.expected());
            } catch (RuntimeException e) {
                points.close();
                if (scalars != null) {
                    scalars.close();
                }
                throw e;
            }
        }
    }

    /** Distinct G2 points of a G2 benchmark input. */
    private static final int G2_DISTINCT = 64;

    /** n elements uniform in Fr on the device (canonical limbs, which are also valid Montgomery limbs). */
    static DeviceBuffer uniform(PrimeField fr, int n, SplittableRandom random) {
        try (Arena arena = Arena.ofShared()) {
            return upload(Scalars.draw(fr, n, WitnessDistribution.UNIFORM, random, 0, arena).values());
        }
    }

    private static DeviceBuffer upload(MemorySegment host) {
        DeviceBuffer d = DeviceBuffer.allocate(host.byteSize());
        try {
            d.upload(host);
        } catch (RuntimeException e) {
            d.close();
            throw e;
        }
        return d;
    }

    /**
     * n uniform canonical elements of Fr in host memory, and the sums S_j = Σ_{i ≡ j mod residues} sᵢ (canonical limbs;
     * none when residues is 0).
     */
    record Scalars(MemorySegment values, long[] residueSums, int residues) {

        /** Draws in parallel, one split of {@code random} per chunk, so the values depend on the seed alone. */
        static Scalars draw(PrimeField fr, int n, WitnessDistribution witness, SplittableRandom random, int residues,
                            Arena arena) {
            int w = fr.limbs();
            int chunks = (n + CHUNK - 1) / CHUNK;
            SplittableRandom[] streams = new SplittableRandom[chunks];
            for (int c = 0; c < chunks; c++) {
                streams[c] = random.split();
            }
            MemorySegment host = arena.allocate((long) n * w * 8, 8);
            long[][] partial = new long[chunks][];
            IntStream.range(0, chunks).parallel().forEach(c -> {
                int from = c * CHUNK;
                int count = Math.min(CHUNK, n - from);
                long[] values = new long[count * w];
                for (int i = 0; i < count; i++) {
                    drawElement(fr, witness, streams[c], values, i * w);
                }
                MemorySegment.copy(values, 0, host, ValueLayout.JAVA_LONG, (long) from * w * 8, values.length);
                if (residues > 0) {
                    // Addition mod r is the same on canonical and Montgomery limbs.
                    long[] s = new long[residues * w];
                    for (int i = 0; i < count; i++) {
                        int j = (from + i) % residues;
                        fr.add(s, j * w, values, i * w, s, j * w);
                    }
                    partial[c] = s;
                }
            });
            long[] sums = new long[residues * w];
            if (residues > 0) {
                for (long[] p : partial) {
                    for (int j = 0; j < residues; j++) {
                        fr.add(sums, j * w, p, j * w, sums, j * w);
                    }
                }
            }
            return new Scalars(host, sums, residues);
        }

        /**
         * Σ sᵢ·k_{i mod residues} mod r for logs k_j in Montgomery form: Σ_j S_j·k_j, where the Montgomery product of
         * a canonical S_j and a Montgomery k_j is the canonical S_j·k_j.
         */
        BigInteger expectedLog(PrimeField fr, long[] montgomeryLogs) {
            int w = fr.limbs();
            long[] total = new long[w];
            long[] term = new long[w];
            for (int j = 0; j < residues; j++) {
                fr.mul(residueSums, j * w, montgomeryLogs, j * w, term, 0);
                fr.add(total, 0, term, 0, total, 0);
            }
            return PrimeField.limbsToBigInteger(total, 0, w);
        }
    }

    /** A uniform element below r: random limbs cut to r's bit length, redrawn until reduced. */
    /**
     * One canonical element: uniform in Fr, or for {@link WitnessDistribution#POREP} 0 or 1 nine times in ten (as a
     * PoRep witness's bits) and uniform otherwise.
     */
    private static void drawElement(PrimeField fr, WitnessDistribution witness, SplittableRandom random, long[] out,
                                    int offset) {
        int w = fr.limbs();
        if (witness == WitnessDistribution.POREP && random.nextInt(10) != 0) {
            java.util.Arrays.fill(out, offset, offset + w, 0L);
            out[offset] = random.nextBoolean() ? 1 : 0;
            return;
        }
        int topBits = fr.modulus().bitLength() - 64 * (w - 1);
        long topMask = topBits >= 64 ? -1L : (1L << topBits) - 1;
        do {
            for (int k = 0; k < w; k++) {
                out[offset + k] = random.nextLong();
            }
            out[offset + w - 1] &= topMask;
        } while (!fr.isReduced(out, offset));
    }
}

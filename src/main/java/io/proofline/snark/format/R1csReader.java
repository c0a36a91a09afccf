package io.proofline.snark.format;

import io.proofline.snark.R1cs;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Path;

/**
 * Reads a circom {@code .r1cs} (version 1): section 1 header {@code n8, prime, nWires, nPubOut, nPubIn, nPrvIn,
 * nLabels (u64), mConstraints}; section 2 the constraints, each three linear combinations
 * {@code {u32 nTerms, then (u32 wireId, n8-byte coefficient, canonical LE)}}. The wire-to-label map (section 3)
 * and custom-gate sections are not needed and not read.
 */
public final class R1csReader {

    static final String MAGIC = "r1cs";
    static final int VERSION = 1;
    static final int HEADER = 1;
    static final int CONSTRAINTS = 2;

    private R1csReader() {
    }

    public static R1cs read(Path path) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            return parse(BinFile.map(path, arena), path.getFileName().toString());
        }
    }

    /** Reads from bytes in memory; the result holds no reference to them. */
    public static R1cs parse(MemorySegment bytes, String name) throws FormatException {
        BinFile file = BinFile.parse(name, bytes, MAGIC, VERSION);
        SectionCursor h = file.cursor(HEADER, "header");
        int n8 = h.u32Int("n8");
        if (n8 != 32) {
            throw h.problem("n8 " + n8 + " is not the size of a supported scalar field (32)");
        }
        BigInteger prime = h.bigInt(n8, "prime");
        SnarkCurve curve = SnarkCurves.byScalarPrime(prime).orElseThrow(() -> h.problem(
                "unknown prime " + prime + " (supported: the scalar fields of bn128 and bls12381)"));
        int nWires = h.u32Int("nWires");
        int nPubOut = h.u32Int("nPubOut");
        int nPubIn = h.u32Int("nPubIn");
        int nPrvIn = h.u32Int("nPrvIn");
        long nLabels = h.u64("nLabels");
        int nConstraints = h.u32Int("mConstraints");
        h.expectEnd();
        if (nWires < 1 || (long) nPubOut + nPubIn + nPrvIn >= nWires) {
            throw h.problem("nPubOut " + nPubOut + " + nPubIn " + nPubIn + " + nPrvIn " + nPrvIn
                    + " do not fit nWires " + nWires + " (wire 0 is the constant 1)");
        }

        SectionCursor s = file.cursor(CONSTRAINTS, "constraints");
        // Every constraint takes at least three u32 term counts: bound the count by the section before allocating.
        s.requireRoom(nConstraints, 12, "constraints");
        if (nConstraints > (Integer.MAX_VALUE - 1) / 3) {
            throw s.problem(nConstraints + " constraints are more than supported");
        }
        int termBytes = 4 + n8;
        long[] modulus = curve.fr().modulusLimbs();
        int[] start = new int[3 * nConstraints + 1];
        // First pass: term counts and bounds, so the term arrays are allocated once at their exact size.
        long terms = 0;
        for (int i = 0; i < nConstraints; i++) {
            for (int k = 0; k < 3; k++) {
                start[3 * i + k] = (int) terms;
                long n = s.u32("term count of constraint " + i);
                s.requireRoom(n, termBytes, "terms of constraint " + i);
                s.slice(n * termBytes, "terms");
                terms += n;
                if (terms > Integer.MAX_VALUE / curve.fr().limbs()) {
                    throw s.problem("more terms than supported (" + terms + ")");
                }
            }
        }
        start[3 * nConstraints] = (int) terms;
        s.expectEnd();

        int limbs = curve.fr().limbs();
        int[] wires = new int[(int) terms];
        long[] coefficients = new long[(int) terms * limbs];
        MemorySegment body = s.body();
        long pos = 0;
        int t = 0;
        for (int i = 0; i < nConstraints; i++) {
            for (int k = 0; k < 3; k++) {
                pos += 4;
                for (int e = start[3 * i + k]; e < start[3 * i + k + 1]; e++, t++) {
                    long wire = Integer.toUnsignedLong(body.get(LittleEndian.U32, pos));
                    if (wire >= nWires) {
                        throw s.problem("constraint " + i + ": wire " + wire + " is not below nWires " + nWires);
                    }
                    if (!SegmentLimbs.lessThan(body, pos + 4, modulus)) {
                        throw s.problem("constraint " + i + ": coefficient of wire " + wire + " is not reduced (≥ r)");
                    }
                    wires[t] = (int) wire;
                    SegmentLimbs.read(body, pos + 4, limbs, coefficients, t * limbs);
                    curve.fr().toMontgomery(coefficients, t * limbs, coefficients, t * limbs);
                    pos += termBytes;
                }
            }
        }
        return new R1cs(curve, nWires, nPubOut, nPubIn, nPrvIn, nLabels, nConstraints, start, wires, coefficients);
    }
}

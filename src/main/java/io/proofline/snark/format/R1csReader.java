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

    /**
     * Maps {@code path} (kept mapped, off the heap, until the result is unreachable: the file must not change) and
     * checks it whole; nothing of the constraints is copied onto the heap.
     */
    public static R1cs read(Path path) throws IOException {
        return read(path, Long.MAX_VALUE);
    }

    /**
     * As {@link #read(Path)}, refusing before any constraint is read a file that claims more than
     * {@code maxConstraints} constraints (say, more than the zkey's domain holds), or whose constraints section is
     * larger than its header's dimensions allow: a huge upload is refused from its header.
     */
    public static R1cs read(Path path, long maxConstraints) throws IOException {
        return parse(BinFile.map(path, Arena.ofAuto()), path.getFileName().toString(), maxConstraints);
    }

    /** Reads from bytes in memory; the result reads its constraints from them. */
    public static R1cs parse(MemorySegment bytes, String name) throws FormatException {
        return parse(bytes, name, Long.MAX_VALUE);
    }

    private static R1cs parse(MemorySegment bytes, String name, long maxConstraints) throws FormatException {
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
        if (nConstraints > maxConstraints) {
            throw h.problem(nConstraints + " constraints are more than the " + maxConstraints + " expected");
        }

        SectionCursor s = file.cursor(CONSTRAINTS, "constraints");
        int termBytes = 4 + n8;
        // A linear combination names each wire at most once: the section cannot be larger than that.
        long perConstraint = 3 * (4 + (long) nWires * termBytes);
        long most = nConstraints > Long.MAX_VALUE / perConstraint ? Long.MAX_VALUE : nConstraints * perConstraint;
        if (s.remaining() > most) {
            throw s.problem("the constraints section (" + s.remaining() + " bytes) is larger than " + nConstraints
                    + " constraints over " + nWires + " wires can take (" + most + ")");
        }
        // Every constraint takes at least three u32 term counts: bound the count by the section.
        s.requireRoom(nConstraints, 12, "constraints");
        MemorySegment body = s.body();
        long[] modulus = curve.fr().modulusLimbs();
        for (int i = 0; i < nConstraints; i++) {
            for (int k = 0; k < 3; k++) {
                long n = s.u32("term count of constraint " + i);
                if (n > nWires) {
                    throw s.problem("constraint " + i + ": " + n + " terms in one linear combination, more than the "
                            + nWires + " wires");
                }
                s.requireRoom(n, termBytes, "terms of constraint " + i);
                long pos = s.position();
                for (long e = 0; e < n; e++, pos += termBytes) {
                    long wire = Integer.toUnsignedLong(body.get(LittleEndian.U32, pos));
                    if (wire >= nWires) {
                        throw s.problem("constraint " + i + ": wire " + wire + " is not below nWires " + nWires);
                    }
                    if (!SegmentLimbs.lessThan(body, pos + 4, modulus)) {
                        throw s.problem("constraint " + i + ": coefficient of wire " + wire + " is not reduced (≥ r)");
                    }
                }
                s.slice(n * termBytes, "terms");
            }
        }
        s.expectEnd();
        return new R1cs(curve, nWires, nPubOut, nPubIn, nPrvIn, nLabels, nConstraints, body);
    }
}

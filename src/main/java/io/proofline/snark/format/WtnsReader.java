package io.proofline.snark.format;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.stream.IntStream;

/**
 * Reads a circom/snarkjs witness file ({@code .wtns}, version 2): section 1 {@code n8, prime r, count}, section 2
 * the values, canonical little-endian, {@code n8} bytes each. Every value must be below r.
 */
public final class WtnsReader {

    static final String MAGIC = "wtns";
    static final int VERSION = 2;
    static final int HEADER = 1;
    static final int VALUES = 2;

    private WtnsReader() {
    }

    /** Maps {@code path}; the witness refers to the mapping and unmaps it on close. */
    public static Witness read(Path path) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment bytes = BinFile.map(path, arena);
            return parse(bytes, path.getFileName().toString(), arena);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /** Reads {@code path} and checks that it is a witness for {@code key} (same curve, nVars values). */
    public static Witness read(Path path, ProvingKey key) throws IOException {
        Witness w = read(path);
        try {
            requireFits(w, key, path.getFileName().toString());
            return w;
        } catch (FormatException e) {
            w.close();
            throw e;
        }
    }

    /**
     * Checks a witness in bytes the caller holds (an upload, a mapped file) and returns a view of its values in place:
     * nothing is copied, the witness owns no memory and is valid as long as {@code bytes} is. Meant for checking the
     * upload and copying its values where they are used (the pipeline's WITNESS buffer): the values of a heap array
     * are not aligned for the provers.
     */
    public static Witness view(MemorySegment bytes, String name) throws FormatException {
        return parse(bytes, name, null);
    }

    /** A {@link FormatException} unless {@code w} has the key's curve and exactly its nVars values. */
    public static void requireFits(Witness w, ProvingKey key, String name) throws FormatException {
        if (w.curve() != key.curve()) {
            throw new FormatException(name, "witness is over " + w.curve() + " but the key is over " + key.curve());
        }
        if (w.size() != key.nVars()) {
            throw new FormatException(name, "witness has " + w.size() + " values but the key has " + key.nVars()
                    + " variables");
        }
    }

    static Witness parse(MemorySegment bytes, String name, Arena owner) throws FormatException {
        BinFile file = BinFile.parse(name, bytes, MAGIC, VERSION);
        SectionCursor header = file.cursor(HEADER, "header");
        int n8 = header.u32Int("n8");
        if (n8 != 32) {
            throw header.problem("n8 " + n8 + " is not the size of a supported scalar field (32)");
        }
        BigInteger prime = header.bigInt(n8, "prime");
        SnarkCurve curve = SnarkCurves.byScalarPrime(prime).orElseThrow(() -> header.problem(
                "unknown prime " + prime + " (supported: the scalar fields of bn128 and bls12381)"));
        int count = header.u32Int("witness count");
        header.expectEnd();

        SectionCursor values = file.cursor(VALUES, "values");
        values.expectSize((long) count * n8, count + " values of " + n8 + " bytes");
        MemorySegment body = values.body();
        long[] r = curve.fr().modulusLimbs();
        IntStream indices = IntStream.range(0, count);
        int firstBad = (SegmentLimbs.isShared(body) ? indices.parallel() : indices)
                .filter(i -> !SegmentLimbs.lessThan(body, (long) i * n8, r))
                .min().orElse(-1);
        if (firstBad >= 0) {
            throw values.problem("value " + firstBad + " is not reduced (≥ r)");
        }
        return new Witness(curve, count, body, owner);
    }
}

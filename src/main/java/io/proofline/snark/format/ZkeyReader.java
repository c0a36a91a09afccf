package io.proofline.snark.format;

import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.stream.IntStream;

/**
 * Reads a snarkjs Groth16 {@code .zkey} (DESIGN §7) into a {@link ProvingKey} without copying its large sections:
 * the file is memory-mapped into an arena the key owns, and the point sections become slices of that mapping.
 *
 * <p>Sections: 1 protocol (1 = Groth16); 2 header {@code n8q, q, n8r, r, nVars, nPublic, domainSize, [α]₁, [β]₁,
 * [β]₂, [γ]₂, [δ]₁, [δ]₂}; 3 IC; 4 coefficients; 5 A; 6 B1; 7 B2; 8 C; 9 H; 10 contributions (kept raw, not
 * interpreted). Every size is checked against the header and the file before use, every coefficient record
 * against the shape, and every point once (coordinates reduced, on the curve, in the subgroup) — so later stages can trust the key.
 */
public final class ZkeyReader {

    static final String MAGIC = "zkey";
    static final int VERSION = 1;
    static final int GROTH16 = 1;

    static final int PROTOCOL = 1;
    static final int HEADER = 2;
    static final int IC = 3;
    static final int COEFFICIENTS = 4;
    static final int POINTS_A = 5;
    static final int POINTS_B1 = 6;
    static final int POINTS_B2 = 7;
    static final int POINTS_C = 8;
    static final int POINTS_H = 9;
    static final int CONTRIBUTIONS = 10;

    /** The largest domain either curve's 𝔽r has roots of unity for (BN254: 2^28). Larger is a corrupt header. */
    private static final int MAX_DOMAIN = 1 << 28;

    private ZkeyReader() {
    }

    /** Maps and reads {@code path}, checking every point fully; the key owns the mapping (close it). */
    public static ProvingKey read(Path path) throws IOException {
        return read(path, PointCheck.SUBGROUP);
    }

    /** Maps and reads {@code path} with the given point checks; the key owns the mapping (close it). */
    public static ProvingKey read(Path path, PointCheck check) throws IOException {
        return read(path, KeyValidation.of(check));
    }

    /**
     * Maps and reads {@code path}, checking the point sections on {@code validation}'s executor and telling it the
     * progress; the key owns the mapping (close it).
     */
    public static ProvingKey read(Path path, KeyValidation validation) throws IOException {
        Arena arena = Arena.ofShared();
        try {
            MemorySegment bytes = BinFile.map(path, arena);
            return parse(bytes, path.getFileName().toString(), arena, validation);
        } catch (IOException | RuntimeException | Error e) {
            arena.close();
            throw e;
        }
    }

    /**
     * Reads a key from bytes already in memory. The key refers to {@code bytes}; {@code owner} (may be {@code null})
     * is the arena it closes.
     */
    public static ProvingKey parse(MemorySegment bytes, String name, Arena owner) throws FormatException {
        return parse(bytes, name, owner, PointCheck.SUBGROUP);
    }

    /** As {@link #parse(MemorySegment, String, Arena)}, with the given point checks. */
    public static ProvingKey parse(MemorySegment bytes, String name, Arena owner, PointCheck check)
            throws FormatException {
        return parse(bytes, name, owner, KeyValidation.of(check));
    }

    /** As {@link #parse(MemorySegment, String, Arena)}, with the given point checks, executor and progress. */
    public static ProvingKey parse(MemorySegment bytes, String name, Arena owner, KeyValidation validation)
            throws FormatException {
        BinFile file = BinFile.parse(name, bytes, MAGIC, VERSION);

        SectionCursor protocol = file.cursor(PROTOCOL, "protocol");
        long id = protocol.u32("protocol id");
        if (id != GROTH16) {
            throw protocol.problem("protocol " + id + " is not Groth16 (1)");
        }
        protocol.expectEnd();

        SectionCursor header = file.cursor(HEADER, "header");
        int n8q = header.u32Int("n8q");
        if (n8q != 32 && n8q != 48) {
            throw header.problem("n8q " + n8q + " is not the size of a supported base field (32 or 48)");
        }
        BigInteger q = header.bigInt(n8q, "q");
        int n8r = header.u32Int("n8r");
        if (n8r != 32) {
            throw header.problem("n8r " + n8r + " is not the size of a supported scalar field (32)");
        }
        BigInteger r = header.bigInt(n8r, "r");
        SnarkCurve curve = SnarkCurves.byPrimes(q, r).orElseThrow(() -> header.problem(
                "unknown primes q = " + q + ", r = " + r + " (supported: bn128, bls12381)"));
        if (n8q != curve.fq().bytes()) {
            throw header.problem("n8q " + n8q + " does not match " + curve + " (" + curve.fq().bytes() + ")");
        }
        int nVars = header.u32Int("nVars");
        int nPublic = header.u32Int("nPublic");
        int domainSize = header.u32Int("domainSize");
        if (nVars < 1 || nPublic > nVars - 1) {
            throw header.problem("nPublic " + nPublic + " does not fit nVars " + nVars + " (needs nPublic + 1 ≤ nVars)");
        }
        if (domainSize < 1 || Integer.bitCount(domainSize) != 1 || domainSize > MAX_DOMAIN) {
            throw header.problem("domainSize " + domainSize + " is not a power of two up to 2^28");
        }
        if (domainSize <= nPublic) {
            throw header.problem("domainSize " + domainSize + " is too small for nPublic " + nPublic);
        }
        // The few header and IC points (the verifying key) always get the full check; `validation` governs the rest.
        PointValidation full = new PointValidation(curve, new KeyValidation(PointCheck.SUBGROUP,
                validation.executor(), validation.threads(), ValidationProgress.NONE));
        PointValidation points = new PointValidation(curve, validation);
        long[] alpha1 = headerPoint(header, curve, full, false, "[α]₁");
        long[] beta1 = headerPoint(header, curve, full, false, "[β]₁");
        long[] beta2 = headerPoint(header, curve, full, true, "[β]₂");
        long[] gamma2 = headerPoint(header, curve, full, true, "[γ]₂");
        long[] delta1 = headerPoint(header, curve, full, false, "[δ]₁");
        long[] delta2 = headerPoint(header, curve, full, true, "[δ]₂");
        header.expectEnd();

        long g1 = curve.g1Bytes();
        long g2 = curve.g2Bytes();
        MemorySegment icSection = pointSection(file, IC, "IC", nPublic + 1L, g1, "nPublic + 1 G1 points");
        full.requireValid(icSection, nPublic + 1L, false, name, IC, "IC");
        long[] ic = new long[(nPublic + 1) * 2 * curve.fq().limbs()];
        SegmentLimbs.read(icSection, 0, ic.length, ic, 0);

        Coefficients coefficients = coefficients(file, curve, nVars, domainSize);

        MemorySegment a = pointSection(file, POINTS_A, "A", nVars, g1, "nVars G1 points");
        MemorySegment b1 = pointSection(file, POINTS_B1, "B1", nVars, g1, "nVars G1 points");
        MemorySegment b2 = pointSection(file, POINTS_B2, "B2", nVars, g2, "nVars G2 points");
        MemorySegment c = pointSection(file, POINTS_C, "C", (long) nVars - nPublic - 1, g1,
                "nVars − nPublic − 1 G1 points");
        MemorySegment h = pointSection(file, POINTS_H, "H", domainSize, g1, "domainSize G1 points");
        if (validation.check() != PointCheck.LATER) {
            checkPointSections(curve, nVars, nPublic, domainSize, a, b1, b2, c, h, name, validation);
        }
        MemorySegment contributions = file.has(CONTRIBUTIONS)
                ? file.section(CONTRIBUTIONS, "contributions")
                : MemorySegment.ofArray(new byte[0]);

        return ProvingKey.builder()
                .curve(curve)
                .shape(nVars, nPublic, domainSize)
                .alpha1(alpha1).beta1(beta1).beta2(beta2).gamma2(gamma2).delta1(delta1).delta2(delta2)
                .ic(ic)
                .coefficients(coefficients)
                .a(a).b1(b1).b2(b2).c(c).h(h)
                .contributions(contributions)
                .arena(owner)
                .byteSize(bytes.byteSize())
                .build();
    }

    /**
     * Checks the point sections A, B1, B2, C and H of a key read with {@link PointCheck#LATER}, as
     * {@code validation} says ({@link PointCheck#SUBGROUP} or {@link PointCheck#CURVE}).
     *
     * @throws FormatException naming the section and the index of the first bad point
     */
    public static void checkPointSections(ProvingKey key, String name, KeyValidation validation)
            throws FormatException {
        checkPointSections(key.curve(), key.nVars(), key.nPublic(), key.domainSize(), key.a(), key.b1(), key.b2(),
                key.c(), key.h(), name, validation);
    }

    private static void checkPointSections(SnarkCurve curve, int nVars, int nPublic, int domainSize, MemorySegment a,
                                           MemorySegment b1, MemorySegment b2, MemorySegment c, MemorySegment h,
                                           String name, KeyValidation validation) throws FormatException {
        if (validation.check() == PointCheck.LATER) {
            throw new IllegalArgumentException("checking the point sections needs SUBGROUP or CURVE, not LATER");
        }
        PointValidation points = new PointValidation(curve, validation);
        ValidationProgress progress = validation.progress();
        long cCount = (long) nVars - nPublic - 1;
        progress.checked("A", 0, nVars);
        progress.checked("B1", 0, nVars);
        progress.checked("B2", 0, nVars);
        progress.checked("C", 0, cCount);
        progress.checked("H", 0, domainSize);
        points.requireValid(a, nVars, false, name, POINTS_A, "A");
        points.requireValid(b1, nVars, false, name, POINTS_B1, "B1");
        points.requireValid(b2, nVars, true, name, POINTS_B2, "B2");
        points.requireValid(c, cCount, false, name, POINTS_C, "C");
        points.requireValid(h, domainSize, false, name, POINTS_H, "H");
    }

    private static long[] headerPoint(SectionCursor header, SnarkCurve curve, PointValidation points, boolean g2,
                                      String what) throws FormatException {
        int bytes = g2 ? curve.g2Bytes() : curve.g1Bytes();
        MemorySegment s = header.slice(bytes, what);
        if (SegmentLimbs.allZero(s, 0, bytes)) {
            throw header.problem(what + " is the point at infinity");
        }
        String problem = points.problem(s, 0, g2);
        if (problem != null) {
            throw header.problem(what + " " + problem);
        }
        long[] limbs = new long[bytes / 8];
        SegmentLimbs.read(s, 0, limbs.length, limbs, 0);
        return limbs;
    }

    private static MemorySegment pointSection(BinFile file, int id, String title, long count, long pointBytes,
                                              String why) throws FormatException {
        SectionCursor s = file.cursor(id, title);
        s.expectSize(count * pointBytes, count + " = " + why + " of " + pointBytes + " bytes");
        return s.body();
    }

    private static Coefficients coefficients(BinFile file, SnarkCurve curve, int nVars, int domainSize)
            throws FormatException {
        SectionCursor s = file.cursor(COEFFICIENTS, "coefficients");
        int count = s.u32Int("coefficient count");
        int recordBytes = Coefficients.recordBytes(curve.fr());
        s.requireRoom(count, recordBytes, "coefficient records");
        MemorySegment records = s.slice((long) count * recordBytes, "coefficient records");
        s.expectEnd();
        Coefficients coefficients = new Coefficients(curve.fr(), count, records);
        long[] r = curve.fr().modulusLimbs();
        IntStream indices = IntStream.range(0, count);
        int firstBad = (SegmentLimbs.isShared(records) ? indices.parallel() : indices)
                .filter(i -> recordProblem(coefficients, records, i, recordBytes, r, nVars, domainSize) != null)
                .min().orElse(-1);
        if (firstBad >= 0) {
            throw s.problem("coefficient " + firstBad + ": "
                    + recordProblem(coefficients, records, firstBad, recordBytes, r, nVars, domainSize));
        }
        return coefficients;
    }

    private static String recordProblem(Coefficients cs, MemorySegment records, int i, int recordBytes, long[] r,
                                        int nVars, int domainSize) {
        int matrix = cs.matrix(i);
        if (matrix != Coefficients.A && matrix != Coefficients.B) {
            return "matrix " + Integer.toUnsignedString(matrix) + " is neither A (0) nor B (1)";
        }
        int row = cs.row(i);
        if (row < 0 || row >= domainSize) {
            return "row " + Integer.toUnsignedString(row) + " is outside the domain of " + domainSize;
        }
        int signal = cs.signal(i);
        if (signal < 0 || signal >= nVars) {
            return "signal " + Integer.toUnsignedString(signal) + " is not below nVars " + nVars;
        }
        if (!SegmentLimbs.lessThan(records, (long) i * recordBytes + 12, r)) {
            return "value is not reduced (≥ r)";
        }
        return null;
    }
}

package io.proofline.snark.format;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;
import io.proofline.algebra.field.SquareRoots;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Every point section of a key on both curves, checked by three tasks over chunks: a point off the curve and a point
 * on the curve outside the prime-order subgroup are rejected wherever they are (named by section and index, the
 * lowest when there are two), and a key of subgroup points is accepted with its progress counted to the end. The key
 * is the snarkjs fixture grown to {@value #N} variables and a domain of {@value #DOMAIN} (more than one chunk per
 * section), its point sections filled with subgroup points.
 */
class KeyPointSectionsTest {

    private static final int N = 4200;
    private static final int DOMAIN = 8192;
    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);
    private static final Map<SnarkCurve, byte[]> KEYS = new ConcurrentHashMap<>();

    /** id, name, G2?, count (from nPublic) */
    record Section(int id, String name, boolean g2) {
        long count(int nPublic) {
            return switch (id) {
                case ZkeyReader.POINTS_C -> N - nPublic - 1;
                case ZkeyReader.POINTS_H -> DOMAIN;
                default -> N;
            };
        }
    }

    private static final Section[] SECTIONS = {
            new Section(ZkeyReader.POINTS_A, "A", false), new Section(ZkeyReader.POINTS_B1, "B1", false),
            new Section(ZkeyReader.POINTS_B2, "B2", true), new Section(ZkeyReader.POINTS_C, "C", false),
            new Section(ZkeyReader.POINTS_H, "H", false)};

    @AfterAll
    static void shutdown() {
        POOL.shutdownNow();
    }

    static Stream<Arguments> everySection() {
        return SnarkCurves.all().stream().flatMap(c -> Stream.of(SECTIONS).map(s -> Arguments.of(c, s)));
    }

    /** Sections whose group has points on the curve outside the subgroup (all but BN254 G1, of cofactor 1). */
    static Stream<Arguments> sectionsWithCofactor() {
        return everySection().filter(a -> a.get()[0] != SnarkCurves.BN128 || ((Section) a.get()[1]).g2());
    }

    private static int nVarsOffset(SnarkCurve curve) {
        return 4 + curve.fq().bytes() + 4 + curve.fr().bytes();
    }

    private static int nPublic(SnarkCurve curve) {
        return Container.getU32(container(curve).body(ZkeyReader.HEADER), nVarsOffset(curve) + 4);
    }

    private static Container container(SnarkCurve curve) {
        return Container.parse(KEYS.computeIfAbsent(curve, KeyPointSectionsTest::grownKey));
    }

    private static byte[] grownKey(SnarkCurve curve) {
        try {
            Container c = Container.parse(Files.readAllBytes(SnarkjsFixtures.file(curve, "circuit.zkey")));
            byte[] header = c.body(ZkeyReader.HEADER);
            int nPublic = Container.getU32(header, nVarsOffset(curve) + 4);
            Container.putU32(header, nVarsOffset(curve), N);
            Container.putU32(header, nVarsOffset(curve) + 8, DOMAIN);
            SplittableRandom rnd = new SplittableRandom(7);
            for (Section s : SECTIONS) {
                c.replace(s.id(), subgroupPoints(s.g2() ? curve.g2() : curve.g1(), s.count(nPublic), rnd));
            }
            return c.bytes();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] subgroupPoints(CurveGroup g, long count, SplittableRandom rnd) {
        CurveOps ops = g.newOps();
        long[] p = ops.mulAffine(g.generator(), BigInteger.valueOf(rnd.nextLong(2, 1L << 40)));
        ByteBuffer out = ByteBuffer.allocate((int) count * g.affineBytes()).order(ByteOrder.LITTLE_ENDIAN);
        for (long i = 0; i < count; i++) {
            for (long limb : p) {
                out.putLong(limb);
            }
            p = ops.addAffine(p, g.generator());
        }
        return out.array();
    }

    /** A point of the curve (x random, y a square root): outside the subgroup but with negligible probability. */
    private static long[] curvePointOutsideSubgroup(CurveGroup g, SplittableRandom rnd) {
        CurveOps ops = g.newOps();
        PrimeField fp = g.baseField();
        int w = g.fieldWidth();
        while (true) {
            long[] p = new long[2 * w];
            long[] rhs = new long[w];
            System.arraycopy(fp.random(rnd), 0, p, 0, fp.limbs());
            if (g.overFp2()) {
                System.arraycopy(fp.random(rnd), 0, p, fp.limbs(), fp.limbs());
            }
            var f = g.overFp2() ? new QuadraticField(fp) : fp;
            f.sqr(p, 0, rhs, 0);
            f.mul(rhs, 0, p, 0, rhs, 0);
            f.add(rhs, 0, g.b(), 0, rhs, 0);
            boolean root = g.overFp2() ? SquareRoots.sqrt((QuadraticField) f, rhs, 0, p, w)
                    : SquareRoots.sqrt(fp, rhs, 0, p, w);
            if (root && ops.isOnCurve(p, 0) && !ops.isInSubgroupSlow(p, 0)) {
                return p;
            }
        }
    }

    private static void put(byte[] body, long index, long[] point) {
        ByteBuffer b = ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN);
        for (int k = 0; k < point.length; k++) {
            b.putLong((int) (index * 8 * point.length) + 8 * k, point[k]);
        }
    }

    private static ProvingKey parse(byte[] bytes, ValidationProgress progress) throws FormatException {
        return ZkeyReader.parse(MemorySegment.ofArray(bytes), "circuit.zkey", null,
                new KeyValidation(PointCheck.SUBGROUP, POOL, 3, progress));
    }

    /** Rejected as the key is read, and, read with the point sections LATER, by checkPointSections. */
    private static void assertRejected(byte[] bytes, String message) {
        FormatException e = assertThrows(FormatException.class, () -> parse(bytes, ValidationProgress.NONE).close());
        assertEquals("circuit.zkey: " + message, e.getMessage());
        KeyValidation later = new KeyValidation(PointCheck.LATER, POOL, 3, ValidationProgress.NONE);
        try (ProvingKey key = ZkeyReader.parse(MemorySegment.ofArray(bytes), "circuit.zkey", null, later)) {
            FormatException checked = assertThrows(FormatException.class, () -> ZkeyReader.checkPointSections(key,
                    "circuit.zkey", new KeyValidation(PointCheck.SUBGROUP, POOL, 2, ValidationProgress.NONE)));
            assertEquals("circuit.zkey: " + message, checked.getMessage());
        } catch (FormatException unexpected) {
            throw new AssertionError("LATER checks no point section: " + unexpected.getMessage(), unexpected);
        }
    }

    private static CurveGroup group(SnarkCurve curve, Section s) {
        return s.g2() ? curve.g2() : curve.g1();
    }

    @ParameterizedTest
    @MethodSource("everySection")
    void aPointOffTheCurveIsRejected(SnarkCurve curve, Section s) {
        Container c = container(curve);
        long last = s.count(nPublic(curve)) - 1; // in the last chunk
        int pointBytes = group(curve, s).affineBytes();
        c.body(s.id())[(int) last * pointBytes + pointBytes / 2] ^= 1; // y's low bit: still reduced, off the curve
        assertRejected(c.bytes(), "section " + s.id() + " (" + s.name() + "): point " + last
                + " is not on the curve of " + group(curve, s).name());
    }

    @ParameterizedTest
    @MethodSource("sectionsWithCofactor")
    void aCurvePointOutsideTheSubgroupIsRejected(SnarkCurve curve, Section s) {
        SplittableRandom rnd = new SplittableRandom(s.id() * 31L + curve.name().length());
        Container c = container(curve);
        long count = s.count(nPublic(curve));
        put(c.body(s.id()), count - 2, curvePointOutsideSubgroup(group(curve, s), rnd));
        assertRejected(c.bytes(), "section " + s.id() + " (" + s.name() + "): point " + (count - 2)
                + " is on the curve but not in the prime-order subgroup of " + group(curve, s).name());
        put(c.body(s.id()), 5, curvePointOutsideSubgroup(group(curve, s), rnd)); // the lowest index is named
        assertRejected(c.bytes(), "section " + s.id() + " (" + s.name() + "): point 5"
                + " is on the curve but not in the prime-order subgroup of " + group(curve, s).name());
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.KeyPointSectionsTest#curves")
    void aKeyOfSubgroupPointsIsAcceptedAndItsProgressCounted(SnarkCurve curve) throws Exception {
        Map<String, long[]> progress = new ConcurrentHashMap<>();
        try (ProvingKey key = parse(container(curve).bytes(),
                (section, checked, total) -> progress.merge(section, new long[]{checked, total},
                        (a, b) -> a[0] >= b[0] ? a : b))) {
            assertEquals(N, key.nVars());
        }
        int nPublic = nPublic(curve);
        for (Section s : SECTIONS) {
            assertEquals(s.count(nPublic), progress.get(s.name())[0], s.name());
            assertEquals(s.count(nPublic), progress.get(s.name())[1], s.name());
        }
    }

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }
}

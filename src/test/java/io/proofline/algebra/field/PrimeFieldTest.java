package io.proofline.algebra.field;

import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every prime field of both curves against a BigInteger reference, on fresh random inputs (seed printed on failure). */
class PrimeFieldTest {

    private static final int ROUNDS = 2_000;

    static Stream<PrimeField> fields() {
        return Stream.of(Bn254.FQ, Bn254.FR, Bls12381.FQ, Bls12381.FR);
    }

    private static BigInteger randomBelow(BigInteger p, SplittableRandom rnd) {
        // Mix in edge values: 0, 1, p-1, and values with all-ones limbs, which stress the carry chains.
        return switch (rnd.nextInt(8)) {
            case 0 -> BigInteger.ZERO;
            case 1 -> BigInteger.ONE;
            case 2 -> p.subtract(BigInteger.ONE);
            case 3 -> BigInteger.ONE.shiftLeft(64 * (rnd.nextInt(p.bitLength() / 64) + 1)).subtract(BigInteger.ONE).mod(p);
            default -> new BigInteger(p.bitLength() + 16, new java.util.Random(rnd.nextLong())).mod(p);
        };
    }

    @ParameterizedTest
    @MethodSource("fields")
    void arithmeticMatchesBigInteger(PrimeField f) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        BigInteger p = f.modulus();
        for (int i = 0; i < ROUNDS; i++) {
            BigInteger x = randomBelow(p, rnd);
            BigInteger y = randomBelow(p, rnd);
            long[] a = f.fromBigInteger(x);
            long[] b = f.fromBigInteger(y);
            String ctx = f + " seed=" + seed + " x=" + x + " y=" + y;
            assertEquals(x.multiply(y).mod(p), f.toBigInteger(f.mul(a, b)), "mul " + ctx);
            assertEquals(x.add(y).mod(p), f.toBigInteger(f.add(a, b)), "add " + ctx);
            assertEquals(x.subtract(y).mod(p), f.toBigInteger(f.sub(a, b)), "sub " + ctx);
            assertEquals(x.negate().mod(p), f.toBigInteger(f.neg(a)), "neg " + ctx);
            long[] sq = f.zero();
            f.sqr(a, 0, sq, 0);
            assertEquals(x.multiply(x).mod(p), f.toBigInteger(sq), "sqr " + ctx);
            if (x.signum() != 0) {
                assertEquals(x.modInverse(p), f.toBigInteger(f.inv(a)), "inv " + ctx);
            }
        }
    }

    /**
     * Montgomery limbs drawn limb by limb from carry-chain edge values (0, 1, all ones, the modulus's own limbs and
     * their neighbours), kept when below p: the value-level test above almost never produces such limbs, while the
     * branch-free carries and the signed top-limb borrow of add/sub/neg/mul are decided exactly by them.
     */
    @ParameterizedTest
    @MethodSource("fields")
    void limbEdgePatternsMatchBigInteger(PrimeField f) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        BigInteger p = f.modulus();
        long[] pl = f.modulusLimbs();
        int n = f.limbs();
        for (int i = 0; i < ROUNDS; i++) {
            long[] a = edgeLimbs(pl, rnd);
            long[] b = edgeLimbs(pl, rnd);
            BigInteger x = f.toBigInteger(a), y = f.toBigInteger(b);
            String ctx = f + " seed=" + seed + " a=" + java.util.Arrays.toString(a) + " b=" + java.util.Arrays.toString(b);
            assertEquals(x.multiply(y).mod(p), f.toBigInteger(f.mul(a, b)), "mul " + ctx);
            assertEquals(x.add(y).mod(p), f.toBigInteger(f.add(a, b)), "add " + ctx);
            assertEquals(x.subtract(y).mod(p), f.toBigInteger(f.sub(a, b)), "sub " + ctx);
            assertEquals(x.negate().mod(p), f.toBigInteger(f.neg(a)), "neg " + ctx);
            for (long[] r : new long[][] {f.mul(a, b), f.add(a, b), f.sub(a, b), f.neg(a)}) {
                assertTrue(f.isReduced(r, 0) && r.length == n, "result not reduced " + ctx);
            }
        }
    }

    static long[] edgeLimbs(long[] pl, SplittableRandom rnd) {
        int n = pl.length;
        long[] a = new long[n];
        BigInteger p = PrimeField.limbsToBigInteger(pl, 0, n);
        do {
            for (int j = 0; j < n; j++) {
                a[j] = switch (rnd.nextInt(7)) {
                    case 0 -> 0;
                    case 1 -> 1;
                    case 2 -> -1;
                    case 3 -> pl[j];
                    case 4 -> pl[j] - 1;
                    case 5 -> pl[j] + 1;
                    default -> rnd.nextLong();
                };
            }
            if (rnd.nextInt(4) == 0) {
                a[n - 1] = pl[n - 1] - rnd.nextInt(2);
            }
        } while (PrimeField.limbsToBigInteger(a, 0, n).compareTo(p) >= 0);
        return a;
    }

    @ParameterizedTest
    @MethodSource("fields")
    void outputMayAliasInputs(PrimeField f) {
        SplittableRandom rnd = new SplittableRandom(7);
        BigInteger x = randomBelow(f.modulus(), rnd), y = randomBelow(f.modulus(), rnd);
        long[] a = f.fromBigInteger(x);
        f.mul(a, 0, f.fromBigInteger(y), 0, a, 0);
        assertEquals(x.multiply(y).mod(f.modulus()), f.toBigInteger(a));
        long[] b = f.fromBigInteger(y);
        f.sub(f.fromBigInteger(x), 0, b, 0, b, 0);
        assertEquals(x.subtract(y).mod(f.modulus()), f.toBigInteger(b));
    }

    @ParameterizedTest
    @MethodSource("fields")
    void constantsAreDerivedFromTheModulus(PrimeField f) {
        BigInteger p = f.modulus();
        BigInteger r = BigInteger.ONE.shiftLeft(64 * f.limbs());
        assertEquals(r.mod(p), PrimeField.limbsToBigInteger(f.montgomeryOne(), 0, f.limbs()));
        assertEquals(r.pow(2).mod(p), PrimeField.limbsToBigInteger(f.montgomeryRSquared(), 0, f.limbs()));
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        assertEquals(BigInteger.ONE.negate().mod(twoTo64),
                BigInteger.valueOf(f.montgomeryInverse()).multiply(p).mod(twoTo64), "inv·p ≡ −1 mod 2^64");
        assertEquals((p.bitLength() + 63) / 64, f.limbs());
    }

    @ParameterizedTest
    @MethodSource("fields")
    void powAndBatchInverse(PrimeField f) {
        SplittableRandom rnd = new SplittableRandom(11);
        BigInteger x = randomBelow(f.modulus(), rnd);
        BigInteger e = new BigInteger(300, new java.util.Random(3));
        assertEquals(x.modPow(e, f.modulus()), f.toBigInteger(f.pow(f.fromBigInteger(x), e)));

        int count = 37;
        long[] v = new long[count * f.limbs()];
        BigInteger[] xs = new BigInteger[count];
        for (int i = 0; i < count; i++) {
            xs[i] = i == 5 ? BigInteger.ZERO : randomBelow(f.modulus(), rnd);
            f.fromBigInteger(xs[i], v, i * f.limbs());
        }
        f.batchInverse(v, 0, count);
        for (int i = 0; i < count; i++) {
            BigInteger expected = xs[i].signum() == 0 ? BigInteger.ZERO : xs[i].modInverse(f.modulus());
            assertEquals(expected, f.toBigInteger(v, i * f.limbs()), "element " + i);
        }
    }

    @ParameterizedTest
    @MethodSource("fields")
    void byteEncodingsRoundTrip(PrimeField f) {
        SplittableRandom rnd = new SplittableRandom(13);
        for (int i = 0; i < 50; i++) {
            long[] a = f.random(rnd);
            BigInteger x = f.toBigInteger(a);
            for (boolean be : new boolean[]{false, true}) {
                for (boolean mont : new boolean[]{false, true}) {
                    byte[] buf = new byte[f.bytes()];
                    f.toBytes(a, 0, be, mont, buf, 0);
                    long[] back = f.zero();
                    f.fromBytes(buf, 0, be, mont, back, 0);
                    assertArrayEquals(a, back);
                }
            }
            byte[] le = new byte[f.bytes()];
            f.toBytes(a, 0, false, true, le, 0);
            // Montgomery LE bytes (the zkey form) hold x·R mod p.
            BigInteger stored = new BigInteger(1, reverse(le));
            assertEquals(x, f.montgomeryReduce(stored));
            assertEquals(x, new BigInteger(f.toDecimal(a, 0)));
        }
    }

    @ParameterizedTest
    @MethodSource("fields")
    void unreducedEncodingsAreRejected(PrimeField f) {
        byte[] be = new byte[f.bytes()];
        byte[] pBytes = f.modulus().toByteArray();
        System.arraycopy(pBytes, Math.max(0, pBytes.length - be.length), be, be.length - Math.min(be.length, pBytes.length), Math.min(be.length, pBytes.length));
        ArithmeticException e = assertThrows(ArithmeticException.class, () -> f.fromBytes(be, 0, true, false, f.zero(), 0));
        assertTrue(e.getMessage().contains("not reduced"));
        assertThrows(ArithmeticException.class, () -> f.fromDecimal(f.modulus().toString()));
        assertThrows(ArithmeticException.class, () -> f.inv(f.zero()));
    }

    private static byte[] reverse(byte[] b) {
        byte[] r = new byte[b.length];
        for (int i = 0; i < b.length; i++) {
            r[i] = b[b.length - 1 - i];
        }
        return r;
    }
}

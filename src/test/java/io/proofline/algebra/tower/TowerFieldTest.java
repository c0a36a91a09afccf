package io.proofline.algebra.tower;

import io.proofline.algebra.bls12381.Bls12381Pairing;
import io.proofline.algebra.bn254.Bn254Pairing;
import io.proofline.algebra.field.PrimeField;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 𝔽p⁶ and 𝔽p¹² against a schoolbook reference written from the defining polynomials (v³ = ξ; w⁶ = ξ with w² = v)
 * over BigInteger 𝔽p² pairs, plus inverses, Frobenius = x^(pᵏ), cyclotomic squaring and the sparse products.
 */
class TowerFieldTest {

    static Stream<Tower> towers() {
        return Stream.of(Bn254Pairing.TOWER, Bls12381Pairing.TOWER);
    }

    /** 𝔽p² element c0 + c1·u with u² = −1, BigInteger arithmetic. */
    record Ref2(BigInteger c0, BigInteger c1) {
        Ref2 add(Ref2 o, BigInteger p) {
            return new Ref2(c0.add(o.c0).mod(p), c1.add(o.c1).mod(p));
        }

        Ref2 mul(Ref2 o, BigInteger p) {
            return new Ref2(c0.multiply(o.c0).subtract(c1.multiply(o.c1)).mod(p),
                    c0.multiply(o.c1).add(c1.multiply(o.c0)).mod(p));
        }
    }

    private static Ref2[] toRef(PrimeField fp, long[] a, int count) {
        int n = fp.limbs();
        Ref2[] r = new Ref2[count];
        for (int i = 0; i < count; i++) {
            r[i] = new Ref2(fp.toBigInteger(a, 2 * i * n), fp.toBigInteger(a, (2 * i + 1) * n));
        }
        return r;
    }

    /** Polynomial product of coefficient arrays (index = power), reduced by X^d = ξ. */
    private static Ref2[] polyMul(Ref2[] a, Ref2[] b, Ref2 xi, BigInteger p) {
        int d = a.length;
        Ref2 zero = new Ref2(BigInteger.ZERO, BigInteger.ZERO);
        Ref2[] full = new Ref2[2 * d - 1];
        java.util.Arrays.fill(full, zero);
        for (int i = 0; i < d; i++) {
            for (int j = 0; j < d; j++) {
                full[i + j] = full[i + j].add(a[i].mul(b[j], p), p);
            }
        }
        Ref2[] r = java.util.Arrays.copyOf(full, d);
        for (int k = d; k < 2 * d - 1; k++) {
            r[k - d] = r[k - d].add(full[k].mul(xi, p), p);
        }
        return r;
    }

    /** Our 𝔽p¹² layout (slot 3i + j is the coefficient of w^(i+2j)) as coefficients by power of w. */
    private static Ref2[] byPowerOfW(Ref2[] slots) {
        Ref2[] r = new Ref2[6];
        for (int i = 0; i < 2; i++) {
            for (int j = 0; j < 3; j++) {
                r[i + 2 * j] = slots[3 * i + j];
            }
        }
        return r;
    }

    private static long[] randomElement(PrimeField fp, int fpCount, SplittableRandom rnd) {
        int n = fp.limbs();
        long[] r = new long[fpCount * n];
        for (int i = 0; i < fpCount; i++) {
            System.arraycopy(fp.random(rnd), 0, r, i * n, n);
        }
        return r;
    }

    @ParameterizedTest
    @MethodSource("towers")
    void fq6MatchesSchoolbookReference(Tower tower) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        PrimeField fp = tower.base();
        BigInteger p = fp.modulus();
        Ref2 xi = new Ref2(BigInteger.valueOf(tower.xiReal()), BigInteger.ONE);
        Fq6 f6 = new Fq6(tower);
        String ctx = tower + " seed=" + seed;
        for (int it = 0; it < 100; it++) {
            long[] a = randomElement(fp, 6, rnd), b = randomElement(fp, 6, rnd), r = new long[f6.width()];
            Ref2[] expected = polyMul(toRef(fp, a, 3), toRef(fp, b, 3), xi, p);
            f6.mul(a, 0, b, 0, r, 0);
            assertArrayEquals(expected, toRef(fp, r, 3), "mul " + ctx);
            f6.sqr(a, 0, r, 0);
            assertArrayEquals(polyMul(toRef(fp, a, 3), toRef(fp, a, 3), xi, p), toRef(fp, r, 3), "sqr " + ctx);
            f6.inv(a, 0, r, 0);
            f6.mul(r, 0, a, 0, r, 0);
            assertTrue(f6.isOne(r, 0), "a·a⁻¹ " + ctx);

            long[] sparse = b.clone();
            java.util.Arrays.fill(sparse, 4 * fp.limbs(), 6 * fp.limbs(), 0L);
            f6.mul(a, 0, sparse, 0, r, 0);
            long[] s = new long[f6.width()];
            f6.mulBy01(a, 0, sparse, 0, 2 * fp.limbs(), s, 0);
            assertArrayEquals(r, s, "mulBy01 " + ctx);
            java.util.Arrays.fill(sparse, 0, 2 * fp.limbs(), 0L);
            f6.mul(a, 0, sparse, 0, r, 0);
            f6.mulBy1(a, 0, sparse, 2 * fp.limbs(), s, 0);
            assertArrayEquals(r, s, "mulBy1 " + ctx);

            f6.mul(a, 0, b, 0, a, 0); // output aliasing an input
            assertArrayEquals(expected, toRef(fp, a, 3), "aliased mul " + ctx);
        }
    }

    @ParameterizedTest
    @MethodSource("towers")
    void fq12MatchesSchoolbookReference(Tower tower) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        PrimeField fp = tower.base();
        BigInteger p = fp.modulus();
        Ref2 xi = new Ref2(BigInteger.valueOf(tower.xiReal()), BigInteger.ONE);
        Fq12 f12 = new Fq12(tower);
        String ctx = tower + " seed=" + seed;
        for (int it = 0; it < 50; it++) {
            long[] a = f12.random(rnd), b = f12.random(rnd), r = new long[f12.width()];
            Ref2[] expected = polyMul(byPowerOfW(toRef(fp, a, 6)), byPowerOfW(toRef(fp, b, 6)), xi, p);
            f12.mul(a, 0, b, 0, r, 0);
            assertArrayEquals(expected, byPowerOfW(toRef(fp, r, 6)), "mul " + ctx);
            f12.sqr(a, 0, r, 0);
            assertArrayEquals(polyMul(byPowerOfW(toRef(fp, a, 6)), byPowerOfW(toRef(fp, a, 6)), xi, p),
                    byPowerOfW(toRef(fp, r, 6)), "sqr " + ctx);
            f12.inv(a, 0, r, 0);
            f12.mul(r, 0, a, 0, r, 0);
            assertTrue(f12.isOne(r, 0), "a·a⁻¹ " + ctx);
            f12.sqr(a, 0, a, 0);
            f12.mul(a, 0, b, 0, a, 0);
            f12.mul(b, 0, b, 0, r, 0);
            f12.sqr(b, 0, b, 0);
            assertArrayEquals(r, b, "sqr = mul(a, a) " + ctx);
        }
    }

    @ParameterizedTest
    @MethodSource("towers")
    void sparseLineProductsMatchFullMultiplication(Tower tower) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        Fq12 f12 = new Fq12(tower);
        int e = 2 * tower.base().limbs();
        for (int it = 0; it < 50; it++) {
            long[] a = f12.random(rnd), line = randomElement(tower.base(), 6, rnd);
            for (int[] slots : new int[][]{{0, 3, 4}, {0, 1, 4}}) {
                long[] dense = new long[f12.width()];
                for (int k = 0; k < 3; k++) {
                    System.arraycopy(line, k * e, dense, slots[k] * e, e);
                }
                long[] expected = new long[f12.width()], actual = new long[f12.width()];
                f12.mul(a, 0, dense, 0, expected, 0);
                if (slots[1] == 3) {
                    f12.mulBy034(a, 0, line, 0, actual, 0);
                } else {
                    f12.mulBy014(a, 0, line, 0, actual, 0);
                }
                assertArrayEquals(expected, actual, tower + " slots " + java.util.Arrays.toString(slots) + " seed=" + seed);
            }
        }
    }

    @ParameterizedTest
    @MethodSource("towers")
    void frobeniusIsThePowerByP(Tower tower) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        Fq12 f12 = new Fq12(tower);
        Fq6 f6 = f12.sextic();
        BigInteger p = tower.base().modulus();
        for (int it = 0; it < 3; it++) {
            long[] a = f12.random(rnd);
            for (int k = 1; k <= Tower.MAX_FROBENIUS; k++) {
                long[] expected = new long[f12.width()], actual = new long[f12.width()];
                f12.pow(a, 0, p.pow(k), expected, 0);
                f12.frobenius(a, 0, k, actual, 0);
                assertArrayEquals(expected, actual, tower + " π^" + k + " seed=" + seed);
                // 𝔽p⁶ ⊂ 𝔽p¹²: the c0 half with c1 = 0 is an 𝔽p⁶ element
                long[] sub = new long[f12.width()];
                System.arraycopy(a, 0, sub, 0, f6.width());
                f12.pow(sub, 0, p.pow(k), expected, 0);
                f6.frobenius(sub, 0, k, actual, 0);
                assertArrayEquals(java.util.Arrays.copyOf(expected, f6.width()), java.util.Arrays.copyOf(actual, f6.width()),
                        tower + " 𝔽p⁶ π^" + k + " seed=" + seed);
            }
            long[] expected = new long[f12.width()], actual = new long[f12.width()];
            f12.pow(a, 0, p.pow(6), expected, 0);
            f12.conjugate(a, 0, actual, 0);
            assertArrayEquals(expected, actual, tower + " conjugate = π⁶ seed=" + seed);
        }
    }

    @ParameterizedTest
    @MethodSource("towers")
    void cyclotomicSquaringAgreesOnTheCyclotomicSubgroup(Tower tower) {
        long seed = System.nanoTime();
        SplittableRandom rnd = new SplittableRandom(seed);
        Fq12 f12 = new Fq12(tower);
        BigInteger p = tower.base().modulus();
        for (int it = 0; it < 20; it++) {
            long[] a = f12.random(rnd), g = new long[f12.width()], t = new long[f12.width()];
            // g = a^((p⁶ − 1)(p² + 1)) lies in the cyclotomic subgroup
            f12.inv(a, 0, t, 0);
            f12.conjugate(a, 0, g, 0);
            f12.mul(g, 0, t, 0, g, 0);
            f12.frobenius(g, 0, 2, t, 0);
            f12.mul(g, 0, t, 0, g, 0);
            if (it == 0) {
                f12.pow(g, 0, p.pow(4).subtract(p.pow(2)).add(BigInteger.ONE), t, 0);
                assertTrue(f12.isOne(t, 0), "g^Φ12(p) = 1 " + tower);
            }
            long[] expected = new long[f12.width()], actual = new long[f12.width()];
            f12.sqr(g, 0, expected, 0);
            f12.cyclotomicSqr(g, 0, actual, 0);
            assertArrayEquals(expected, actual, tower + " seed=" + seed);
            long k = rnd.nextLong();
            f12.pow(g, 0, new BigInteger(Long.toUnsignedString(k)), expected, 0);
            f12.cyclotomicPow(g, 0, k, actual, 0);
            assertArrayEquals(expected, actual, tower + " pow " + Long.toUnsignedString(k) + " seed=" + seed);
        }
    }

    @ParameterizedTest
    @MethodSource("towers")
    void frobeniusCoefficientsAreTheDefiningPowersOfXi(Tower tower) {
        // w^(e·p) = w^e·γ: check through pow on the element w^e itself, independent of the table's derivation
        Fq12 f12 = new Fq12(tower);
        BigInteger p = tower.base().modulus();
        int e2 = 2 * tower.base().limbs();
        for (int exp = 1; exp < 6; exp++) {
            long[] we = new long[f12.width()];
            int slot = (exp % 2) * 3 + exp / 2;
            tower.base().setOne(we, slot * e2);
            long[] powered = new long[f12.width()];
            f12.pow(we, 0, p, powered, 0);
            long[] gamma = tower.frobeniusCoefficient(1, exp);
            assertArrayEquals(gamma, java.util.Arrays.copyOfRange(powered, slot * e2, (slot + 1) * e2), tower + " w^" + exp);
            assertEquals(f12.width(), powered.length);
        }
    }
}

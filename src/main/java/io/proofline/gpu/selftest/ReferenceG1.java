package io.proofline.gpu.selftest;

import io.proofline.algebra.field.PrimeField;
import io.proofline.gpu.GpuCurve;

import java.math.BigInteger;

/**
 * A deliberately simple CPU reference for G1 (y² = x³ + b) in Jacobian coordinates (x = X/Z², y = Y/Z³), used to
 * check the GPU's XYZZ Pippenger. Formulas differ from the GPU's on purpose: add-1998-cmo-2 (12M + 4S) and
 * dbl-2009-l (2M + 5S), from the Explicit-Formulas Database. Points are {@code long[3·limbs]} X‖Y‖Z in Montgomery
 * form; Z = 0 is infinity. Allocates freely: it is a reference, not a hot path.
 */
public final class ReferenceG1 {

    private final PrimeField fq;
    private final int w;
    private final long[] b;
    private final long[] generator;

    private ReferenceG1(PrimeField fq, long b, BigInteger gx, BigInteger gy) {
        this.fq = fq;
        this.w = fq.limbs();
        this.b = fq.fromLong(b);
        this.generator = affine(fq.fromBigInteger(gx), fq.fromBigInteger(gy));
    }

    /** The reference for a curve: BN254 y² = x³ + 3, G = (1, 2); BLS12-381 y² = x³ + 4, G from the IETF draft. */
    public static ReferenceG1 of(GpuCurve curve) {
        return switch (curve) {
            case BN254 -> new ReferenceG1(curve.fq(), 3, BigInteger.ONE, BigInteger.TWO);
            case BLS12_381 -> new ReferenceG1(curve.fq(), 4,
                    new BigInteger("17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb", 16),
                    new BigInteger("08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1", 16));
        };
    }

    public PrimeField fq() {
        return fq;
    }

    /** The generator, affine {@code x‖y}. */
    public long[] generator() {
        return generator.clone();
    }

    public long[] infinity() {
        return new long[3 * w];
    }

    public boolean isInfinity(long[] p) {
        return fq.isZero(p, 2 * w);
    }

    /** Jacobian from affine x‖y ((0,0) is infinity). */
    public long[] fromAffine(long[] a) {
        long[] p = new long[3 * w];
        if (fq.isZero(a, 0) && fq.isZero(a, w)) {
            return p;
        }
        System.arraycopy(a, 0, p, 0, 2 * w);
        fq.setOne(p, 2 * w);
        return p;
    }

    /** Affine x‖y; infinity as (0, 0). */
    public long[] toAffine(long[] p) {
        if (isInfinity(p)) {
            return new long[2 * w];
        }
        long[] zi = fq.inv(z(p));
        long[] zi2 = fq.mul(zi, zi);
        return affine(fq.mul(x(p), zi2), fq.mul(y(p), fq.mul(zi2, zi)));
    }

    /** Affine from XYZZ limbs X‖Y‖ZZ‖ZZZ (the GPU's result): x = X/ZZ, y = Y/ZZZ. */
    public long[] affineFromXyzz(long[] xyzz) {
        long[] zz = slice(xyzz, 2);
        if (fq.isZero(zz, 0)) {
            return new long[2 * w];
        }
        return affine(fq.mul(slice(xyzz, 0), fq.inv(zz)), fq.mul(slice(xyzz, 1), fq.inv(slice(xyzz, 3))));
    }

    public boolean isOnCurve(long[] affine) {
        long[] x = slice(affine, 0);
        long[] y = slice(affine, 1);
        if (fq.isZero(x, 0) && fq.isZero(y, 0)) {
            return true;
        }
        return fq.equal(fq.mul(y, y), 0, fq.add(fq.mul(fq.mul(x, x), x), b), 0);
    }

    /** dbl-2009-l: A = X², B = Y², C = B², D = 2((X+B)² − A − C), E = 3A, F = E², X3 = F − 2D,
     *  Y3 = E(D − X3) − 8C, Z3 = 2YZ. */
    public long[] dbl(long[] p) {
        if (isInfinity(p)) {
            return p.clone();
        }
        long[] X = x(p), Y = y(p), Z = z(p);
        long[] A = fq.mul(X, X);
        long[] B = fq.mul(Y, Y);
        long[] C = fq.mul(B, B);
        long[] xb = fq.add(X, B);
        long[] D = fq.sub(fq.sub(fq.mul(xb, xb), A), C);
        D = fq.add(D, D);
        long[] E = fq.add(fq.add(A, A), A);
        long[] F = fq.mul(E, E);
        long[] X3 = fq.sub(F, fq.add(D, D));
        long[] c8 = fq.add(C, C);
        c8 = fq.add(c8, c8);
        c8 = fq.add(c8, c8);
        long[] Y3 = fq.sub(fq.mul(E, fq.sub(D, X3)), c8);
        long[] Z3 = fq.mul(Y, Z);
        Z3 = fq.add(Z3, Z3);
        return jacobian(X3, Y3, Z3);
    }

    /** add-1998-cmo-2: U1 = X1Z2², U2 = X2Z1², S1 = Y1Z2³, S2 = Y2Z1³, H = U2 − U1, R = S2 − S1,
     *  X3 = R² − H³ − 2U1H², Y3 = R(U1H² − X3) − S1H³, Z3 = Z1Z2H. */
    public long[] add(long[] p, long[] q) {
        if (isInfinity(p)) {
            return q.clone();
        }
        if (isInfinity(q)) {
            return p.clone();
        }
        long[] z1z1 = fq.mul(z(p), z(p));
        long[] z2z2 = fq.mul(z(q), z(q));
        long[] u1 = fq.mul(x(p), z2z2);
        long[] u2 = fq.mul(x(q), z1z1);
        long[] s1 = fq.mul(y(p), fq.mul(z2z2, z(q)));
        long[] s2 = fq.mul(y(q), fq.mul(z1z1, z(p)));
        long[] h = fq.sub(u2, u1);
        long[] r = fq.sub(s2, s1);
        if (fq.isZero(h, 0)) {
            return fq.isZero(r, 0) ? dbl(p) : infinity();
        }
        long[] hh = fq.mul(h, h);
        long[] hhh = fq.mul(hh, h);
        long[] u1hh = fq.mul(u1, hh);
        long[] x3 = fq.sub(fq.sub(fq.mul(r, r), hhh), fq.add(u1hh, u1hh));
        long[] y3 = fq.sub(fq.mul(r, fq.sub(u1hh, x3)), fq.mul(s1, hhh));
        long[] z3 = fq.mul(fq.mul(z(p), z(q)), h);
        return jacobian(x3, y3, z3);
    }

    /** k·P by double-and-add (k ≥ 0). */
    public long[] multiply(long[] p, BigInteger k) {
        long[] acc = infinity();
        for (int bit = k.bitLength() - 1; bit >= 0; bit--) {
            acc = dbl(acc);
            if (k.testBit(bit)) {
                acc = add(acc, p);
            }
        }
        return acc;
    }

    /** Jacobian points to affine x‖y, flat, with one shared inversion (Montgomery's trick). */
    public long[] batchToAffine(long[][] points) {
        int n = points.length;
        long[] zs = new long[n * w];
        for (int i = 0; i < n; i++) {
            System.arraycopy(points[i], 2 * w, zs, i * w, w);
        }
        fq.batchInverse(zs, 0, n);
        long[] out = new long[n * 2 * w];
        long[] zi = new long[w];
        long[] zi2 = new long[w];
        for (int i = 0; i < n; i++) {
            if (isInfinity(points[i])) {
                continue;
            }
            System.arraycopy(zs, i * w, zi, 0, w);
            fq.mul(zi, 0, zi, 0, zi2, 0);
            fq.mul(points[i], 0, zi2, 0, out, 2 * i * w);
            fq.mul(zi2, 0, zi, 0, zi2, 0);
            fq.mul(points[i], w, zi2, 0, out, 2 * i * w + w);
        }
        return out;
    }

    private long[] affine(long[] x, long[] y) {
        long[] a = new long[2 * w];
        System.arraycopy(x, 0, a, 0, w);
        System.arraycopy(y, 0, a, w, w);
        return a;
    }

    private long[] jacobian(long[] x, long[] y, long[] z) {
        long[] p = new long[3 * w];
        System.arraycopy(x, 0, p, 0, w);
        System.arraycopy(y, 0, p, w, w);
        System.arraycopy(z, 0, p, 2 * w, w);
        return p;
    }

    private long[] slice(long[] p, int coordinate) {
        long[] c = new long[w];
        System.arraycopy(p, coordinate * w, c, 0, w);
        return c;
    }

    private long[] x(long[] p) {
        return slice(p, 0);
    }

    private long[] y(long[] p) {
        return slice(p, 1);
    }

    private long[] z(long[] p) {
        return slice(p, 2);
    }
}

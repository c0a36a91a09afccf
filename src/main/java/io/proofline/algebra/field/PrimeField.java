package io.proofline.algebra.field;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * A prime field 𝔽ₚ in Montgomery form on little-endian 64-bit limbs. Every constant is derived from the modulus:
 * the limb count {@code n = ⌈bits/64⌉}, {@code R = 2^(64n)}, {@code R mod p}, {@code R² mod p} and
 * {@code −p⁻¹ mod 2^64}. Because {@code R = 2^(8·n8)} with snarkjs's {@code n8 = 8n}, the limbs of an element are
 * exactly the little-endian Montgomery bytes that snarkjs writes into {@code .zkey} files.
 *
 * <p>Stateless and thread-safe. Elements are {@code long[]} runs of {@link #limbs()} longs at an offset.
 */
public final class PrimeField implements FieldOps {

    private final String name;
    private final BigInteger modulus;
    private final int limbs;
    private final long[] p;
    /** −p⁻¹ mod 2^64, the Montgomery reduction factor. */
    private final long inv;
    /** R mod p: the element 1 in Montgomery form. */
    private final long[] one;
    /** R² mod p: multiplying by it converts into Montgomery form. */
    private final long[] r2;
    private final BigInteger rInverse;
    private final BigInteger pMinus2;

    public PrimeField(String name, BigInteger modulus) {
        if (modulus.signum() <= 0 || !modulus.testBit(0) || !modulus.isProbablePrime(64)) {
            throw new IllegalArgumentException(name + ": modulus must be an odd prime");
        }
        this.name = name;
        this.modulus = modulus;
        this.limbs = (modulus.bitLength() + 63) / 64;
        if (limbs != 4 && limbs != 6) {
            throw new IllegalArgumentException(name + ": only 4- and 6-limb moduli are supported, got " + limbs);
        }
        this.p = toLimbs(modulus, limbs);
        // The no-carry CIOS multiplication in Montgomery needs the top limb below 2^63 - 1 (which also lets its
        // subtraction and negation treat the top limbs' difference as a signed value).
        if (Long.compareUnsigned(p[limbs - 1], 0x7FFF_FFFF_FFFF_FFFEL) >= 0) {
            throw new IllegalArgumentException(name + ": top limb too large for the no-carry Montgomery multiplication");
        }
        BigInteger twoTo64 = BigInteger.ONE.shiftLeft(64);
        this.inv = modulus.modInverse(twoTo64).negate().mod(twoTo64).longValue();
        BigInteger r = BigInteger.ONE.shiftLeft(64 * limbs);
        this.one = toLimbs(r.mod(modulus), limbs);
        this.r2 = toLimbs(r.multiply(r).mod(modulus), limbs);
        this.rInverse = r.modInverse(modulus);
        this.pMinus2 = modulus.subtract(BigInteger.TWO);
    }

    public String name() {
        return name;
    }

    public BigInteger modulus() {
        return modulus;
    }

    /** Number of 64-bit limbs per element. */
    public int limbs() {
        return limbs;
    }

    /** Bytes per element in snarkjs's encoding ({@code n8}). */
    public int bytes() {
        return 8 * limbs;
    }

    @Override
    public int width() {
        return limbs;
    }

    /** The modulus limbs (a copy). */
    public long[] modulusLimbs() {
        return p.clone();
    }

    /** −p⁻¹ mod 2^64. */
    public long montgomeryInverse() {
        return inv;
    }

    /** R mod p limbs (a copy). */
    public long[] montgomeryOne() {
        return one.clone();
    }

    /** R² mod p limbs (a copy). */
    public long[] montgomeryRSquared() {
        return r2.clone();
    }

    // ---- arithmetic --------------------------------------------------------------------------------------------

    @Override
    public void mul(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        if (limbs == 4) {
            Montgomery.mul4(a, ao, b, bo, r, ro, p, inv);
        } else {
            Montgomery.mul6(a, ao, b, bo, r, ro, p, inv);
        }
    }

    @Override
    public void sqr(long[] a, int ao, long[] r, int ro) {
        mul(a, ao, a, ao, r, ro);
    }

    @Override
    public void add(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        if (limbs == 4) {
            Montgomery.add4(a, ao, b, bo, r, ro, p);
        } else {
            Montgomery.add6(a, ao, b, bo, r, ro, p);
        }
    }

    @Override
    public void sub(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        if (limbs == 4) {
            Montgomery.sub4(a, ao, b, bo, r, ro, p);
        } else {
            Montgomery.sub6(a, ao, b, bo, r, ro, p);
        }
    }

    @Override
    public void neg(long[] a, int ao, long[] r, int ro) {
        if (limbs == 4) {
            Montgomery.neg4(a, ao, r, ro, p);
        } else {
            Montgomery.neg6(a, ao, r, ro, p);
        }
    }

    // ---- unreduced steps for lazy reduction (QuadraticField's multiplication); package-private --------------------

    /** w[wo .. wo+2n) = a·b, the full product without reduction; w must not alias a or b. */
    void mulWide(long[] a, int ao, long[] b, int bo, long[] w, int wo) {
        if (limbs == 4) {
            Montgomery.mulWide4(a, ao, b, bo, w, wo);
        } else {
            Montgomery.mulWide6(a, ao, b, bo, w, wo);
        }
    }

    /** r = T·R⁻¹ mod p for the 2n-limb T = w[wo ..] below p·R. */
    void redc(long[] w, int wo, long[] r, int ro) {
        if (limbs == 4) {
            Montgomery.redc4(w, wo, r, ro, p, inv);
        } else {
            Montgomery.redc6(w, wo, r, ro, p, inv);
        }
    }

    /** 2n-limb w[ro ..] = x − y; returns the borrow out. */
    long subWide(long[] x, int xo, long[] y, int yo, long[] w, int ro) {
        return limbs == 4 ? Montgomery.subWide4(x, xo, y, yo, w, ro) : Montgomery.subWide6(x, xo, y, yo, w, ro);
    }

    /** Adds p·R to the 2n-limb w[wo ..] (mod 2^(128n)) where {@code mask} is all ones. */
    void addUpperMasked(long[] w, int wo, long mask) {
        if (limbs == 4) {
            Montgomery.addUpperMasked4(w, wo, p, mask);
        } else {
            Montgomery.addUpperMasked6(w, wo, p, mask);
        }
    }

    /** r = a + b as integers (below 2p, not reduced). */
    void addNoReduce(long[] a, int ao, long[] b, int bo, long[] r, int ro) {
        if (limbs == 4) {
            Montgomery.addNoReduce4(a, ao, b, bo, r, ro);
        } else {
            Montgomery.addNoReduce6(a, ao, b, bo, r, ro);
        }
    }

    /** Inverse by Fermat's little theorem (constant sequence of operations, no secret-dependent branches). */
    @Override
    public void inv(long[] a, int ao, long[] r, int ro) {
        if (isZero(a, ao)) {
            throw new ArithmeticException(name + ": inverse of zero");
        }
        pow(a, ao, pMinus2, r, ro);
    }

    /** r = a^e for a non-negative exponent (square-and-multiply, most significant bit first). */
    public void pow(long[] a, int ao, BigInteger e, long[] r, int ro) {
        long[] base = Arrays.copyOfRange(a, ao, ao + limbs);
        long[] acc = one.clone();
        for (int bit = e.bitLength() - 1; bit >= 0; bit--) {
            mul(acc, 0, acc, 0, acc, 0);
            if (e.testBit(bit)) {
                mul(acc, 0, base, 0, acc, 0);
            }
        }
        System.arraycopy(acc, 0, r, ro, limbs);
    }

    @Override
    public boolean isZero(long[] a, int ao) {
        long acc = 0;
        for (int i = 0; i < limbs; i++) {
            acc |= a[ao + i];
        }
        return acc == 0;
    }

    /** Limb-wise equality (elements are reduced, so equal values have equal limbs); no calls, no early exit. */
    @Override
    public boolean equal(long[] a, int ao, long[] b, int bo) {
        long diff = 0;
        for (int i = 0; i < limbs; i++) {
            diff |= a[ao + i] ^ b[bo + i];
        }
        return diff == 0;
    }

    @Override
    public boolean isOne(long[] a, int ao) {
        return Arrays.equals(a, ao, ao + limbs, one, 0, limbs);
    }

    @Override
    public void setZero(long[] r, int ro) {
        Arrays.fill(r, ro, ro + limbs, 0L);
    }

    @Override
    public void setOne(long[] r, int ro) {
        System.arraycopy(one, 0, r, ro, limbs);
    }

    /**
     * Montgomery's batch inversion: inverts {@code count} elements stored contiguously from offset {@code off} in
     * place, with one field inversion and 3(count−1) multiplications. Zeros are left as zero.
     */
    public void batchInverse(long[] v, int off, int count) {
        long[] prefix = new long[count * limbs];
        long[] acc = one.clone();
        for (int i = 0; i < count; i++) {
            int e = off + i * limbs;
            System.arraycopy(acc, 0, prefix, i * limbs, limbs);
            if (!isZero(v, e)) {
                mul(acc, 0, v, e, acc, 0);
            }
        }
        if (isZero(acc, 0)) {
            return;
        }
        inv(acc, 0, acc, 0);
        long[] tmp = new long[limbs];
        for (int i = count - 1; i >= 0; i--) {
            int e = off + i * limbs;
            if (isZero(v, e)) {
                continue;
            }
            mul(acc, 0, prefix, i * limbs, tmp, 0); // tmp = 1 / v_i
            mul(acc, 0, v, e, acc, 0);              // drop v_i from the running inverse
            System.arraycopy(tmp, 0, v, e, limbs);
        }
    }

    // ---- conversions --------------------------------------------------------------------------------------------

    /** A new element equal to {@code x mod p} in Montgomery form. */
    public long[] fromBigInteger(BigInteger x) {
        long[] r = new long[limbs];
        fromBigInteger(x, r, 0);
        return r;
    }

    public void fromBigInteger(BigInteger x, long[] r, int ro) {
        long[] canonical = toLimbs(x.mod(modulus), limbs);
        toMontgomery(canonical, 0, r, ro);
    }

    public long[] fromLong(long x) {
        return fromBigInteger(BigInteger.valueOf(x));
    }

    /** The canonical value of a Montgomery element. */
    public BigInteger toBigInteger(long[] a, int ao) {
        long[] c = new long[limbs];
        fromMontgomery(a, ao, c, 0);
        return limbsToBigInteger(c, 0, limbs);
    }

    public BigInteger toBigInteger(long[] a) {
        return toBigInteger(a, 0);
    }

    /** Canonical limbs (already reduced) into Montgomery form: multiply by R². */
    public void toMontgomery(long[] canonical, int co, long[] r, int ro) {
        mul(canonical, co, r2, 0, r, ro);
    }

    /** Montgomery limbs out to canonical limbs: multiply by 1. */
    public void fromMontgomery(long[] a, int ao, long[] r, int ro) {
        long[] unit = new long[limbs];
        unit[0] = 1;
        mul(a, ao, unit, 0, r, ro);
    }

    /** Whether canonical limbs hold a value below p (a reduced encoding). */
    public boolean isReduced(long[] c, int co) {
        for (int i = limbs - 1; i >= 0; i--) {
            int cmp = Long.compareUnsigned(c[co + i], p[i]);
            if (cmp != 0) {
                return cmp < 0;
            }
        }
        return false;
    }

    public long[] fromDecimal(String s) {
        BigInteger x;
        try {
            x = new BigInteger(s.trim());
        } catch (NumberFormatException e) {
            throw new NumberFormatException(name + ": not a decimal integer: '" + s + "'");
        }
        if (x.signum() < 0 || x.compareTo(modulus) >= 0) {
            throw new ArithmeticException(name + ": value not reduced modulo p: " + s);
        }
        return fromBigInteger(x);
    }

    public String toDecimal(long[] a, int ao) {
        return toBigInteger(a, ao).toString();
    }

    /**
     * Reads {@link #bytes()} bytes as an element. {@code bigEndian} selects the byte order; {@code montgomery} says the
     * bytes hold the Montgomery form (snarkjs zkeys) rather than the canonical value (wtns files, EIP-196/2537).
     * Throws {@link ArithmeticException} when the encoded integer is not below p.
     */
    public void fromBytes(byte[] src, int off, boolean bigEndian, boolean montgomery, long[] r, int ro) {
        long[] c = new long[limbs];
        for (int i = 0; i < limbs; i++) {
            long limb = 0;
            for (int b = 0; b < 8; b++) {
                int index = bigEndian ? off + bytes() - 1 - (8 * i + b) : off + 8 * i + b;
                limb |= (src[index] & 0xFFL) << (8 * b);
            }
            c[i] = limb;
        }
        if (!isReduced(c, 0)) {
            throw new ArithmeticException(name + ": field element not reduced (≥ p)");
        }
        if (montgomery) {
            System.arraycopy(c, 0, r, ro, limbs);
        } else {
            toMontgomery(c, 0, r, ro);
        }
    }

    /** Writes {@link #bytes()} bytes of an element; see {@link #fromBytes} for the flags. */
    public void toBytes(long[] a, int ao, boolean bigEndian, boolean montgomery, byte[] dst, int off) {
        long[] c = new long[limbs];
        if (montgomery) {
            System.arraycopy(a, ao, c, 0, limbs);
        } else {
            fromMontgomery(a, ao, c, 0);
        }
        for (int i = 0; i < limbs; i++) {
            for (int b = 0; b < 8; b++) {
                int index = bigEndian ? off + bytes() - 1 - (8 * i + b) : off + 8 * i + b;
                dst[index] = (byte) (c[i] >>> (8 * b));
            }
        }
    }

    /** A uniformly random element (rejection sampling on the top limb). */
    public long[] random(RandomGenerator rnd) {
        long[] c = new long[limbs];
        int topBits = modulus.bitLength() - 64 * (limbs - 1);
        long topMask = topBits == 64 ? -1L : (1L << topBits) - 1;
        do {
            for (int i = 0; i < limbs; i++) {
                c[i] = rnd.nextLong();
            }
            c[limbs - 1] &= topMask;
        } while (!isReduced(c, 0));
        long[] r = new long[limbs];
        toMontgomery(c, 0, r, 0);
        return r;
    }

    // ---- allocating conveniences (not for hot loops) -----------------------------------------------------------

    public long[] zero() {
        return new long[limbs];
    }

    public long[] one() {
        return one.clone();
    }

    public long[] mul(long[] a, long[] b) {
        long[] r = new long[limbs];
        mul(a, 0, b, 0, r, 0);
        return r;
    }

    public long[] add(long[] a, long[] b) {
        long[] r = new long[limbs];
        add(a, 0, b, 0, r, 0);
        return r;
    }

    public long[] sub(long[] a, long[] b) {
        long[] r = new long[limbs];
        sub(a, 0, b, 0, r, 0);
        return r;
    }

    public long[] neg(long[] a) {
        long[] r = new long[limbs];
        neg(a, 0, r, 0);
        return r;
    }

    public long[] inv(long[] a) {
        long[] r = new long[limbs];
        inv(a, 0, r, 0);
        return r;
    }

    public long[] pow(long[] a, BigInteger e) {
        long[] r = new long[limbs];
        pow(a, 0, e, r, 0);
        return r;
    }

    /** {@code (x·R⁻¹) mod p}: the canonical value whose Montgomery form has the limbs of {@code x}. */
    public BigInteger montgomeryReduce(BigInteger x) {
        return x.multiply(rInverse).mod(modulus);
    }

    // ---- limb helpers ---------------------------------------------------------------------------------------------

    public static long[] toLimbs(BigInteger x, int limbs) {
        if (x.signum() < 0 || x.bitLength() > 64 * limbs) {
            throw new IllegalArgumentException("value does not fit " + limbs + " limbs");
        }
        long[] r = new long[limbs];
        for (int i = 0; i < limbs; i++) {
            r[i] = x.shiftRight(64 * i).longValue();
        }
        return r;
    }

    public static BigInteger limbsToBigInteger(long[] a, int ao, int limbs) {
        byte[] be = new byte[8 * limbs + 1];
        for (int i = 0; i < limbs; i++) {
            long limb = a[ao + i];
            for (int b = 0; b < 8; b++) {
                be[be.length - 1 - (8 * i + b)] = (byte) (limb >>> (8 * b));
            }
        }
        return new BigInteger(be);
    }

    @Override
    public String toString() {
        return name;
    }
}

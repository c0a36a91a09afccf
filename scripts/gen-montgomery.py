#!/usr/bin/env python3
"""Generates io/proofline/algebra/field/Montgomery.java: unrolled Montgomery arithmetic on 4 and 6 64-bit limbs.

Why generated: Java has no const generics, and a loop over limbs with a scratch array is ~2x slower than straight-line
code on locals (the JIT keeps every limb in a register). The algorithm is CIOS with the "no-carry" shortcut of
gnark-crypto (valid when the top limb of p is below 2^63 - 1, which BN254 Fq/Fr and BLS12-381 Fq/Fr satisfy; the
PrimeField constructor checks it). Subtraction and negation further use that elements' top limbs are then below 2^63:
the top limbs' difference is a signed value whose sign is the borrow, so no borrow or carry out of the top limb is
computed (sub4 ~23 % faster than with full borrow chains, docs/lab/benchmarks-history.md). Run: python3 scripts/gen-montgomery.py > src/main/java/io/proofline/algebra/field/Montgomery.java
"""

def mul(n):
    o = []
    o.append(f"    /** r = a·b·R⁻¹ mod p on {n} limbs (CIOS, no-carry variant). r may alias a or b. */")
    o.append(f"    static void mul{n}(long[] a, int ao, long[] b, int bo, long[] r, int ro, long[] p, long inv) {{")
    o.append("        " + " ".join(f"long a{j} = a[ao + {j}];" for j in range(n)))
    o.append("        " + " ".join(f"long p{j} = p[{j}];" for j in range(n)))
    o.append("        " + " ".join(f"long t{j} = 0;" for j in range(n)))
    o.append("        long A, C, m, lo, hi, s, bi;")
    for i in range(n):
        o.append(f"        bi = b[bo + {i}];")
        # (A, t0) = t0 + a0*bi
        o.append(f"        lo = a0 * bi; hi = Math.unsignedMultiplyHigh(a0, bi); s = lo + t0; hi += carry(s, lo); t0 = s; A = hi;")
        o.append(f"        m = t0 * inv;")
        # C, _ = t0 + m*p0
        # m·p0 + t0 ≡ 0 mod 2^64 by the choice of m: the low word is never needed, its carry is (t0 ≠ 0)
        o.append(f"        C = Math.unsignedMultiplyHigh(m, p0) + (t0 != 0 ? 1 : 0);")
        for j in range(1, n):
            # (A, tj) = tj + aj*bi + A
            o.append(f"        lo = a{j} * bi; hi = Math.unsignedMultiplyHigh(a{j}, bi); s = lo + t{j}; hi += carry(s, lo); lo = s; s = lo + A; hi += carry(s, lo); t{j} = s; A = hi;")
            # (C, t{j-1}) = tj + m*pj + C
            o.append(f"        lo = m * p{j}; hi = Math.unsignedMultiplyHigh(m, p{j}); s = lo + t{j}; hi += carry(s, lo); lo = s; s = lo + C; hi += carry(s, lo); t{j-1} = s; C = hi;")
        o.append(f"        t{n-1} = C + A;")
    o.append(f"        reduceOnce{n}(t0, " + ", ".join(f"t{j}" for j in range(1, n)) + ", p, r, ro);")
    o.append("    }")
    return "\n".join(o)

def reduce_once(n):
    args = ", ".join(f"long t{j}" for j in range(n))
    o = [f"    /** r = t - p if t ≥ p else t (t < 2p; the top limb of t may use all 64 bits). */",
         f"    private static void reduceOnce{n}({args}, long[] p, long[] r, int ro) {{",
         "        long d0 = t0 - p[0]; long br = borrowOut(t0, p[0], d0);"]
    for j in range(1, n):
        o.append(f"        long d{j} = t{j} - p[{j}] - br; br = borrowOut(t{j}, p[{j}], d{j});")
    o.append("        long keep = -br; // all ones when t < p")
    for j in range(n):
        o.append(f"        r[ro + {j}] = d{j} ^ ((t{j} ^ d{j}) & keep);")
    o.append("    }")
    return "\n".join(o)

def add(n):
    o = [f"    /** r = a + b mod p on {n} limbs (p < 2^{64*n-1}, so a + b does not overflow). */",
         f"    static void add{n}(long[] a, int ao, long[] b, int bo, long[] r, int ro, long[] p) {{",
         "        long x, y;",
         "        x = a[ao]; y = b[bo]; long s0 = x + y; long c = carryOut(x, y, s0);"]
    for j in range(1, n - 1):
        o.append(f"        x = a[ao + {j}]; y = b[bo + {j}]; long s{j} = x + y + c; c = carryOut(x, y, s{j});")
    o.append(f"        long s{n-1} = a[ao + {n-1}] + b[bo + {n-1}] + c;")
    o.append(f"        reduceOnce{n}(" + ", ".join(f"s{j}" for j in range(n)) + ", p, r, ro);")
    o.append("    }")
    return "\n".join(o)

def sub(n):
    o = [f"    /**",
         f"     * r = a - b mod p on {n} limbs. The top limbs of a and b are below 2^63 (p < 2^{64*n-1}), so the top limbs'",
         f"     * difference is a signed value whose sign is the borrow: no borrow or carry out of the top limb is computed.",
         f"     */",
         f"    static void sub{n}(long[] a, int ao, long[] b, int bo, long[] r, int ro, long[] p) {{",
         "        long x, y, s;",
         "        x = a[ao]; y = b[bo]; long d0 = x - y; long br = borrowOut(x, y, d0);"]
    for j in range(1, n - 1):
        o.append(f"        x = a[ao + {j}]; y = b[bo + {j}]; long d{j} = x - y - br; br = borrowOut(x, y, d{j});")
    o.append(f"        long d{n-1} = a[ao + {n-1}] - b[bo + {n-1}] - br;")
    o.append(f"        long mask = d{n-1} >> 63; // all ones when a < b: add p back")
    o.append(f"        y = p[0] & mask; s = d0 + y; long c = carryOut(d0, y, s); r[ro] = s;")
    for j in range(1, n - 1):
        o.append(f"        y = p[{j}] & mask; s = d{j} + y + c; c = carryOut(d{j}, y, s); r[ro + {j}] = s;")
    o.append(f"        r[ro + {n-1}] = d{n-1} + (p[{n-1}] & mask) + c;")
    o.append("    }")
    return "\n".join(o)

def neg(n):
    o = [f"    /** r = −a mod p on {n} limbs: p − a, or 0 for a = 0. No borrow leaves the top limb (a < p). */",
         f"    static void neg{n}(long[] a, int ao, long[] r, int ro, long[] p) {{",
         "        " + " ".join(f"long x{j} = a[ao + {j}];" for j in range(n)),
         "        long nonZero = (" + " | ".join(f"x{j}" for j in range(n)) + ") == 0 ? 0 : -1L;",
         "        long d0 = p[0] - x0; long br = borrowOut(p[0], x0, d0);"]
    for j in range(1, n - 1):
        o.append(f"        long d{j} = p[{j}] - x{j} - br; br = borrowOut(p[{j}], x{j}, d{j});")
    o.append(f"        long d{n-1} = p[{n-1}] - x{n-1} - br;")
    for j in range(n):
        o.append(f"        r[ro + {j}] = d{j} & nonZero;")
    o.append("    }")
    return "\n".join(o)

def mul_wide(n):
    o = [f"    /** w[wo .. wo+{2*n}) = a·b, the full {2*n}-limb product (no reduction); w must not alias a or b. */",
         f"    static void mulWide{n}(long[] a, int ao, long[] b, int bo, long[] w, int wo) {{",
         "        " + " ".join(f"long a{j} = a[ao + {j}];" for j in range(n)),
         "        " + " ".join(f"long t{j} = 0;" for j in range(2 * n)),
         "        long A, lo, hi, s, bi;"]
    for i in range(n):
        o.append(f"        bi = b[bo + {i}]; A = 0;")
        for j in range(n):
            k = i + j
            if i == 0:
                if j == 0:
                    o.append(f"        t0 = a0 * bi; A = Math.unsignedMultiplyHigh(a0, bi);")
                else:
                    o.append(f"        lo = a{j} * bi; hi = Math.unsignedMultiplyHigh(a{j}, bi); s = lo + A; hi += carry(s, lo); t{k} = s; A = hi;")
            else:
                o.append(f"        lo = a{j} * bi; hi = Math.unsignedMultiplyHigh(a{j}, bi); s = lo + t{k}; hi += carry(s, lo); lo = s; s = lo + A; hi += carry(s, lo); t{k} = s; A = hi;")
        o.append(f"        t{i + n} = A;")
    for k in range(2 * n):
        o.append(f"        w[wo + {k}] = t{k};")
    o.append("    }")
    return "\n".join(o)

def redc(n):
    o = [f"    /**",
         f"     * r = T·R⁻¹ mod p for a {2*n}-limb T = w[wo ..] below p·R (Montgomery reduction alone, SOS): the",
         f"     * intermediate stays below 2p·R, so the result after one conditional subtraction is reduced.",
         f"     */",
         f"    static void redc{n}(long[] w, int wo, long[] r, int ro, long[] p, long inv) {{",
         "        " + " ".join(f"long t{k} = w[wo + {k}];" for k in range(2 * n)),
         "        " + " ".join(f"long p{j} = p[{j}];" for j in range(n)),
         "        long C, m, lo, hi, s, top = 0, c1;"]
    for i in range(n):
        o.append(f"        m = t{i} * inv;")
        o.append(f"        C = Math.unsignedMultiplyHigh(m, p0) + (t{i} != 0 ? 1 : 0); // m·p0 + t{i} ≡ 0 mod 2^64")
        for j in range(1, n):
            k = i + j
            o.append(f"        lo = m * p{j}; hi = Math.unsignedMultiplyHigh(m, p{j}); s = lo + t{k}; hi += carry(s, lo); lo = s; s = lo + C; hi += carry(s, lo); t{k} = s; C = hi;")
        k = i + n
        o.append(f"        s = t{k} + C + top; top = carryOut(t{k}, C, s); t{k} = s;")
    o.append(f"        reduceOnce{n}(" + ", ".join(f"t{k}" for k in range(n, 2 * n)) + ", p, r, ro);")
    o.append("    }")
    return "\n".join(o)

def wide_sub(n):
    m = 2 * n
    o = [f"    /** w[ro ..] = x − y on {m} limbs; returns the borrow out (1 when x &lt; y). r may alias x or y. */",
         f"    static long subWide{n}(long[] x, int xo, long[] y, int yo, long[] w, int ro) {{",
         "        long br = 0, d, u, v;"]
    for k in range(m):
        o.append(f"        u = x[xo + {k}]; v = y[yo + {k}]; d = u - v - br; br = borrowOut(u, v, d); w[ro + {k}] = d;")
    o.append("        return br;")
    o.append("    }")
    return "\n".join(o)

def add_upper(n):
    o = [f"    /** w[wo+{n} .. wo+{2*n}) += p where mask is all ones (a wide value plus p·R, mod 2^{128*n}); else unchanged. */",
         f"    static void addUpperMasked{n}(long[] w, int wo, long[] p, long mask) {{",
         "        long c = 0, x, y, s;"]
    for j in range(n):
        o.append(f"        x = w[wo + {n + j}]; y = p[{j}] & mask; s = x + y + c; c = carryOut(x, y, s); w[wo + {n + j}] = s;")
    o.append("    }")
    return "\n".join(o)

def add_raw(n):
    o = [f"    /** r = a + b on {n} limbs, not reduced (a, b &lt; p &lt; 2^{64*n-1}, so the sum fits). */",
         f"    static void addNoReduce{n}(long[] a, int ao, long[] b, int bo, long[] r, int ro) {{",
         "        long x, y;",
         "        x = a[ao]; y = b[bo]; long s0 = x + y; long c = carryOut(x, y, s0);"]
    for j in range(1, n - 1):
        o.append(f"        x = a[ao + {j}]; y = b[bo + {j}]; long s{j} = x + y + c; c = carryOut(x, y, s{j});")
    o.append(f"        long s{n-1} = a[ao + {n-1}] + b[bo + {n-1}] + c;")
    for j in range(n):
        o.append(f"        r[ro + {j}] = s{j};")
    o.append("    }")
    return "\n".join(o)

print("""// GENERATED by scripts/gen-montgomery.py — do not edit by hand; change the generator and re-run it.
package io.proofline.algebra.field;

/**
 * Straight-line Montgomery arithmetic on 4 and 6 little-endian 64-bit limbs. {@link PrimeField} dispatches here by
 * limb count. Every method reads all of its inputs before writing {@code r}, so {@code r} may alias an input.
 */
final class Montgomery {

    private Montgomery() {
    }

    /**
     * Carry out of the two-operand sum s = x + y, given s and x: 1 when s &lt; x unsigned. Written with
     * {@link Long#compareUnsigned}, which C2 compiles to one unsigned compare whose flag result feeds setb/adc-like
     * code; the Hacker's Delight bit formula ((x &amp; y) | ((x | y) &amp; ~s)) &gt;&gt;&gt; 63 it replaces took
     * five logic operations per carry and made the 4-limb multiplication ~1.45× slower (docs/lab/benchmarks-history.md).
     * Used by the multiplications, whose carries are all two-operand ones; chains with a carry-in use
     * {@link #carryOut} and {@link #borrowOut}.
     */
    static long carry(long s, long x) {
        return Long.compareUnsigned(s, x) < 0 ? 1 : 0;
    }

    /**
     * Carry out of s = x + y + c for a carry-in c ∈ {0, 1}, by bit logic (Hacker's Delight 2-13). The add/sub
     * chains use these instead of {@link #carry}: C2 turns a compare-and-select whose profile is skewed (the carry
     * out of {@code s + c} is almost never 1, and the profile of a shared helper mixes all of its call sites) into
     * a branch, and on random limbs the 50 % carries then mispredict (sub4 was ~14 % of a proof's samples).
     */
    static long carryOut(long x, long y, long s) {
        return ((x & y) | ((x | y) & ~s)) >>> 63;
    }

    /** Borrow out of d = x − y − b for a borrow-in b ∈ {0, 1}, by bit logic (Hacker's Delight 2-13). */
    static long borrowOut(long x, long y, long d) {
        return ((~x & y) | (~(x ^ y) & d)) >>> 63;
    }
""")
for n in (4, 6):
    print(mul(n)); print(); print(add(n)); print(); print(sub(n)); print(); print(neg(n)); print(); print(reduce_once(n)); print()
    print(mul_wide(n)); print(); print(redc(n)); print(); print(wide_sub(n)); print(); print(add_upper(n)); print(); print(add_raw(n)); print()
print("}")

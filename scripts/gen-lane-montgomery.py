#!/usr/bin/env python3
"""Generates the Vector API Montgomery kernels io/proofline/algebra/field/LaneMontgomery<BITS>.java: Montgomery
multiplication of many independent field elements at once, one element per SIMD lane (issues #3, #22), for the two
modulus shapes of the provers' base fields: 254 bits in 4 64-bit words (BN254 Fq) and 381 bits in 6 (BLS12-381 Fq).
Their common API and the constants derived from the modulus are in the hand-written LaneMontgomery.java.

Why this shape: the Vector API has no 64x64->128 multiply, so an element is held as N limbs of 29 bits, one long
lane each, and every limb product is a lanewise long multiply of two values below 2^32 (which C2 can compile to
vpmuludq when it can see that the upper halves are zero, hence the explicit masks; the --plain variant leaves them
out so the difference can be measured). 29-bit limbs leave headroom: a column collects at most 2N products below
2^58 (N <= 15 keeps that below 2^63), so the operand-scanning loop carries only one limb per step (t0 >>> 29 into t1)
and normalises once at the end. Straight-line code on locals, not a loop over a scratch array: vectors stored in an
array are boxed. The 381-bit kernel's multiplication and conversion back are split in two methods each (see SHAPES).

Run: python3 scripts/gen-lane-montgomery.py --bits 254 > src/main/java/io/proofline/algebra/field/LaneMontgomery254.java
     python3 scripts/gen-lane-montgomery.py --bits 381 > src/main/java/io/proofline/algebra/field/LaneMontgomery381.java
"""
import sys

W = 29      # bits per lane limb
PLAIN = "--plain" in sys.argv   # no 32-bit operand masks (for measuring what C2 does without them)


def arg(name):
    i = sys.argv.index(name)
    return sys.argv[i + 1]


BITS = int(arg("--bits")) if "--bits" in sys.argv else 254
# modulus bits -> (64-bit words, lane limbs, lane-form bound bits, field, split steps). A kernel with split steps
# multiplies in several methods (operand-scanning steps [0, s1), [s1, s2), ...) and converts back in two (divide,
# then reduce), handing the limbs over in the instance's scratch: C1's tier 3 runs out of virtual registers on a
# vector method much above 4,000 bytes of bytecode (the 381-bit multiplication in one method is 7,400), and a method
# that C1 compiled at tier 2 first then never reaches C2 (the policy waits for a tier-3 profile), leaving the vector
# code boxed on every call: 15x slower.
SHAPES = {
    254: (4, 9, 259, "BN254 𝔽q", None),
    381: (6, 14, 403, "BLS12-381 𝔽q", (5, 10)),
}
WORDS, N, BOUND, FIELD, SPLIT = SHAPES[BITS]
SCALE = W * N - 64 * WORDS          # lane form x·2^(29N) against the 64-bit form x·2^(64·WORDS)
assert 0 < SCALE <= W and N <= 15
IND8 = " " * 8
IND12 = " " * 12


def plus(i):
    return "" if i == 0 else f" + {i}"


def lane(k):
    return "" if k == 0 else f"{k} * stride + "


def lo32(expr):
    return expr if PLAIN else f"{expr}.and(LO32)"


def mul_consts():
    consts = f"        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);\n"
    consts += f"        LongVector MASK = LongVector.broadcast(SPECIES, LIMB_MASK);\n"
    consts += f"        LongVector PINV = {lo32('LongVector.broadcast(SPECIES, pInv29)')};\n"
    consts += "\n".join(f"        LongVector P{j} = {lo32(f'LongVector.broadcast(SPECIES, p29[{j}])')};" for j in range(N))
    consts += f"\n        LongVector ai, m, c, {', '.join(f't{j}' for j in range(N))};"
    return consts


def mul_steps(first, last):
    """Operand-scanning steps [first, last); the state t0..t(N-2) holds the earlier steps' result where first > 0."""
    o = []
    ind = IND8
    for j in range(N):
        o.append(f"{ind}LongVector b{j} = {lo32(f'LongVector.fromArray(SPECIES, b, {j} * stride + be)')};")
    zero = [first == 0] * (N - 1) + [True]
    if first > 0:
        for j in range(N - 1):
            o.append(f"{ind}t{j} = LongVector.fromArray(SPECIES, state, {j} * LANES);")
    for i in range(first, last):
        o.append(f"{ind}ai = {lo32(f'LongVector.fromArray(SPECIES, a, {i} * stride + ae)')};")
        for j in range(N):
            if zero[j]:
                o.append(f"{ind}t{j} = ai.mul(b{j});")
                zero[j] = False
            else:
                o.append(f"{ind}t{j} = t{j}.add(ai.mul(b{j}));")
        # m = t0 · (−p⁻¹) mod 2^29; only the low 32 bits of t0 matter. The shift pair clears bits 29..63 in a form
        # (unsigned shift right by 35 ≥ 32) that tells C2 the upper half is zero.
        if PLAIN:
            o.append(f"{ind}m = t0.mul(PINV).and(MASK);")
        else:
            o.append(f"{ind}m = t0.and(LO32).mul(PINV).lanewise(VectorOperators.LSHL, 35).lanewise(VectorOperators.LSHR, 35);")
        o.append(f"{ind}c = t0.add(m.mul(P0)).lanewise(VectorOperators.LSHR, {W});")
        # divide by 2^29: limb j+1 becomes limb j
        for j in range(1, N):
            src = f"t{j}.add(m.mul(P{j}))"
            if j == 1:
                src += ".add(c)"
            o.append(f"{ind}t{j - 1} = {src};")
        zero[N - 1] = True
    if last < N:
        o.append(f"{ind}// the state for the second half: limb N-1 is empty after a step")
        for j in range(N - 1):
            o.append(f"{ind}t{j}.intoArray(state, {j} * LANES);")
        return "\n".join(o)
    o.append(f"{ind}// carry-normalise into 29-bit limbs; the value is below 2^{BOUND}, so nothing leaves limb {N - 1}")
    # (the last step's shift left limb N-1 empty: it is only the carry out of limb N-2)
    for j in range(N - 2):
        o.append(f"{ind}t{j + 1} = t{j + 1}.add(t{j}.lanewise(VectorOperators.LSHR, {W}));")
        o.append(f"{ind}t{j}.and(MASK).intoArray(r, {j} * stride + re);")
    o.append(f"{ind}t{N - 2}.and(MASK).intoArray(r, {N - 2} * stride + re);")
    o.append(f"{ind}t{N - 2}.lanewise(VectorOperators.LSHR, {W}).intoArray(r, {N - 1} * stride + re);")
    return "\n".join(o)


def mul_methods():
    sig = "(long[] a, int ae, long[] b, int be, long[] r, int re, int stride)"
    if SPLIT is None:
        return f"""    @Override
    public void mulGroup{sig} {{
{mul_consts()}
{mul_steps(0, N)}
    }}"""
    bounds = [0, *SPLIT, N]
    parts = [(bounds[i], bounds[i + 1]) for i in range(len(bounds) - 1)]
    calls = "\n".join(f"        mulSteps{x}To{y}(a, ae, b, be, r, re, stride);" for x, y in parts)
    o = [f"""    /** Steps {', '.join(f'[{x}, {y})' for x, y in parts)} in methods of their own, the state in between in {{@link #state}}. */
    @Override
    public void mulGroup{sig} {{
{calls}
    }}"""]
    for x, y in parts:
        what = "then the result into r" if y == N else "the state into {@link #state}"
        o.append(f"""
    /** Steps [{x}, {y}) of {{@link #mulGroup}}{' from the state in {@link #state}' if x > 0 else ''}, {what}. */
    private void mulSteps{x}To{y}{sig} {{
{mul_consts()}
{mul_steps(x, y)}
    }}""")
    return "\n".join(o)


def load_body():
    return "\n".join(f"{IND12}LongVector v{k} = LongVector.fromArray(SPECIES, src, {k} * stride + e);" for k in range(N))


def divide_body():
    """v ← (v + k·p) / 2^SCALE: add k·p limbwise, carry-normalise, shift the limbs right by SCALE bits."""
    o = []
    ind = IND12
    o.append(f"{ind}LongVector carry = LongVector.zero(SPECIES), x;")
    for k in range(N):
        o.append(f"{ind}x = v{k}.add(k.mul(P29_{k})).add(carry); carry = x.lanewise(VectorOperators.LSHR, {W}); v{k} = x.and(mask);")
    o.append(f"{ind}// the value is below 2^{BOUND} + 2^{SCALE}·p < 2^{W * N}: no carry leaves limb {N - 1}; the low {SCALE} bits are zero")
    for k in range(N - 1):
        o.append(f"{ind}v{k} = v{k}.lanewise(VectorOperators.LSHR, SCALE_BITS).or(v{k + 1}.lanewise(VectorOperators.LSHL, {W} - SCALE_BITS).and(mask));")
    o.append(f"{ind}v{N - 1} = v{N - 1}.lanewise(VectorOperators.LSHR, SCALE_BITS);")
    return "\n".join(o)


def word_terms(i, limb, shl, shr, orf):
    """The expression of 64-bit word i from the 29-bit limbs (names by limb(k)), for values below 2^(64·(i+1))."""
    terms = []
    for k in range(N):
        lo = W * k
        if lo + W <= 64 * i or lo >= 64 * (i + 1):
            continue
        if lo >= 64 * i:
            s = lo - 64 * i
            terms.append(limb(k) if s == 0 else shl(limb(k), s))
        else:
            terms.append(shr(limb(k), 64 * i - lo))
    return orf(terms)


def vec_shl(x, s):
    return f"{x}.lanewise(VectorOperators.LSHL, {s})"


def vec_shr(x, s):
    return f"{x}.lanewise(VectorOperators.LSHR, {s})"


def vec_or(terms):
    return terms[0] + "".join(f".or({t})" for t in terms[1:])


def reduce_body():
    o = []
    ind = IND12
    o.append(f"{ind}LongVector cd = LongVector.zero(SPECIES), ce = cd, dk, ek;")
    for k in range(N):
        o.append(f"{ind}dk = v{k}.sub(P29_{k}).add(cd); cd = dk.lanewise(VectorOperators.ASHR, {W}); LongVector d{k} = dk.and(mask);")
        o.append(f"{ind}ek = v{k}.sub(TWO_P29_{k}).add(ce); ce = ek.lanewise(VectorOperators.ASHR, {W}); LongVector e{k} = ek.and(mask);")
    o.append(f"{ind}VectorMask<Long> atLeastP = cd.compare(VectorOperators.EQ, 0L);")
    o.append(f"{ind}VectorMask<Long> atLeast2P = ce.compare(VectorOperators.EQ, 0L);")
    for k in range(N):
        o.append(f"{ind}v{k} = v{k}.blend(d{k}, atLeastP).blend(e{k}, atLeast2P);")
    for i in range(WORDS):
        o.append(f"{ind}LongVector w{i} = {word_terms(i, lambda k: f'v{k}', vec_shl, vec_shr, vec_or)};")
    return "\n".join(o)


def scatter_body():
    # Stored whole into a small buffer and written to the elements word by word: a scatter (intoArray with an index
    # map) has no AVX2 instruction, and C2's fallback boxes every vector of the group (hundreds of MiB per proof).
    o = [f"{IND12}int n = Math.min(LANES, count - g);"]
    for i in range(WORDS):
        o.append(f"{IND12}w{i}.intoArray(words, {i} * LANES);")
    o.append(f"{IND12}for (int j = 0; j < n; j++) {{")
    o.append(f"{IND12}    int o = dstOff + elementStride * (g + j);")
    for i in range(WORDS):
        o.append(f"{IND12}    dst[o{plus(i)}] = words[{i} * LANES + j];")
    o.append(f"{IND12}}}")
    return "\n".join(o)


def add_body(sub):
    o = []
    ind = IND8
    for k in range(N):
        a = f"LongVector.fromArray(SPECIES, a, {k} * stride + ae)"
        b = f"LongVector.fromArray(SPECIES, b, {k} * stride + be)"
        if sub:
            o.append(f"{ind}x = {a}.sub({b}).add(LongVector.broadcast(SPECIES, subOffsetP29[{k}])).add(c); c = x.lanewise(VectorOperators.ASHR, {W});")
        else:
            o.append(f"{ind}x = {a}.add({b}).add(c); c = x.lanewise(VectorOperators.LSHR, {W});")
        if k < N - 1:
            o.append(f"{ind}x.and(mask).intoArray(r, {k} * stride + re);")
        else:
            o.append(f"{ind}x.intoArray(r, {k} * stride + re);")
    return "\n".join(o)


def limb_expr(word, k, shl, shr, orf):
    """Limb k (bits [29k, 29k + 29)) of the (WORDS + 1)-word integer y0..yWORDS, before masking."""
    lo = W * k
    w, s = lo // 64, lo % 64
    parts = [f"y{w}" if s == 0 else shr(f"y{w}", s)]
    if s + W > 64 and w + 1 <= WORDS:
        parts.append(shl(f"y{w + 1}", 64 - s))
    return orf(parts)


def split_group_body():
    o = []
    for i in range(WORDS):
        o.append(f"{IND8}LongVector x{i} = LongVector.fromArray(SPECIES, src, s{plus(i)}, starts, 0);")
    o.append(f"{IND8}LongVector {', '.join(f'y{i} = x{i}' for i in range(WORDS))}, y{WORDS} = LongVector.zero(SPECIES);")
    o.append(f"{IND8}if (shift != 0) {{")
    o.append(f"{IND8}    y0 = x0.lanewise(VectorOperators.LSHL, shift);")
    for i in range(1, WORDS):
        o.append(f"{IND8}    y{i} = x{i}.lanewise(VectorOperators.LSHL, shift).or(x{i - 1}.lanewise(VectorOperators.LSHR, 64 - shift));")
    o.append(f"{IND8}    y{WORDS} = x{WORDS - 1}.lanewise(VectorOperators.LSHR, 64 - shift);")
    o.append(f"{IND8}}}")
    o.append(f"{IND8}LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);")
    for k in range(N):
        e = limb_expr(None, k, vec_shl, vec_shr, vec_or)
        o.append(f"{IND8}{e}.and(mask).intoArray(dst, {lane(k)}d);")
    return "\n".join(o)


def scalar_shl(x, s):
    return f"({x} << {s})"


def scalar_shr(x, s):
    return f"({x} >>> {s})"


def scalar_or(terms):
    return terms[0] if len(terms) == 1 else "(" + " | ".join(terms) + ")"


def split_body():
    o = []
    for k in range(N):
        e = limb_expr(None, k, scalar_shl, scalar_shr, scalar_or)
        o.append(f"{IND8}dst[{lane(k)}d] = {e} & LIMB_MASK;")
    return "\n".join(o)


def split_params():
    return ", ".join(f"long y{i}" for i in range(WORDS + 1))


def to_lanes_tail():
    o = [f"{IND12}int s = srcOff + elementStride * i;"]
    o.append(f"{IND12}long {', '.join(f'x{i} = src[s{plus(i)}]' for i in range(WORDS))};")
    o.append(f"{IND12}// y = x·2^{SCALE} in {WORDS + 1} words; limb k is bits [29k, 29k + 29) of y")
    o.append(f"{IND12}long y0 = x0 << SCALE_BITS;")
    for i in range(1, WORDS):
        o.append(f"{IND12}long y{i} = (x{i} << SCALE_BITS) | (x{i - 1} >>> (64 - SCALE_BITS));")
    o.append(f"{IND12}long y{WORDS} = x{WORDS - 1} >>> (64 - SCALE_BITS);")
    o.append(f"{IND12}split({', '.join(f'y{i}' for i in range(WORDS + 1))}, dst, stride, to + i);")
    return "\n".join(o)


def plain_tail():
    return (f"{IND12}int s = srcOff + WORDS * i;\n"
            f"{IND12}split({', '.join(f'src[s{plus(i)}]' for i in range(WORDS))}, 0, dst, stride, to + i);")


def from_lanes_scalar_body():
    o = []
    ind = IND12
    o.append(f"{ind}int s = from + i;")
    for k in range(N):
        o.append(f"{ind}long l{k} = src[{lane(k)}s];")
    for i in range(WORDS + 1):
        o.append(f"{ind}long v{i} = {word_terms(i, lambda k: f'l{k}', scalar_shl, scalar_shr, lambda t: ' | '.join(t))};")
    o.append(f"{ind}long k = (v0 * inv) & ((1L << SCALE_BITS) - 1);")
    o.append(f"{ind}// u = v + k·p (k < 2^{SCALE}, so each k·p_j is a low word plus a small high word)")
    o.append(f"{ind}long lo, hi, u, c;")
    o.append(f"{ind}lo = k * p[0]; hi = Math.unsignedMultiplyHigh(k, p[0]); u = v0 + lo; c = hi + Montgomery.carry(u, lo); long u0 = u;")
    for j in range(1, WORDS):
        o.append(f"{ind}lo = k * p[{j}]; hi = Math.unsignedMultiplyHigh(k, p[{j}]); u = v{j} + lo; hi += Montgomery.carry(u, lo); lo = u; u = lo + c; hi += Montgomery.carry(u, lo); c = hi; long u{j} = u;")
    o.append(f"{ind}long u{WORDS} = v{WORDS} + c;")
    for j in range(WORDS):
        o.append(f"{ind}long w{j} = (u{j} >>> SCALE_BITS) | (u{j + 1} << (64 - SCALE_BITS));")
    o.append(f"{ind}reduceBelow3p({', '.join(f'w{j}' for j in range(WORDS))}, dst, dstOff + elementStride * i);")
    return "\n".join(o)


def reduce_below_3p():
    o = []
    ind = IND8
    params = ", ".join(f"long w{j}" for j in range(WORDS))
    o.append(f"    private void reduceBelow3p({params}, long[] r, int ro) {{")
    for name, arr, b in (("d", "p", "br"), ("e", "twoP", "bt")):
        for j in range(WORDS):
            borrow = "" if j == 0 else f" - {b}"
            decl = f"long {b} = " if j == 0 else f"{b} = "
            o.append(f"{ind}long {name}{j} = w{j} - {arr}[{j}]{borrow}; {decl}Montgomery.borrowOut(w{j}, {arr}[{j}], {name}{j});")
    o.append(f"{ind}long keepW = -br;                // w < p")
    o.append(f"{ind}long keepD = -bt & ~keepW;       // p ≤ w < 2p")
    o.append(f"{ind}long keepE = ~(keepW | keepD);   // 2p ≤ w")
    for j in range(WORDS):
        o.append(f"{ind}r[ro{plus(j)}] = (w{j} & keepW) | (d{j} & keepD) | (e{j} & keepE);")
    o.append("    }")
    return "\n".join(o)


def main():
    pconsts = "\n".join(f"        LongVector P29_{k} = LongVector.broadcast(SPECIES, p29[{k}]).and(LO32), TWO_P29_{k} = LongVector.broadcast(SPECIES, twoP29[{k}]);" for k in range(N))
    subst = {
        "@PCONSTS@": pconsts, "@REDUCE@": reduce_body(), "@LOAD@": load_body(), "@DIVIDE@": divide_body(),
        "@SCATTER@": scatter_body(), "@ADD@": add_body(False), "@SUB@": add_body(True),
        "@MULMETHODS@": mul_methods(), "@FROMLANES@": FROM_LANES_UNSPLIT if SPLIT is None else FROM_LANES_SPLIT,
        "@FROMPLAIN@": FROM_PLAIN_UNSPLIT if SPLIT is None else FROM_PLAIN_SPLIT,
        "@PONLY@": "\n".join(f"        LongVector P29_{k} = LongVector.broadcast(SPECIES, p29[{k}]).and(LO32);" for k in range(N)),
        "@STORESTATE@": "\n".join(f"{IND8}v{k}.intoArray(state, {k} * LANES);" for k in range(N)),
        "@LOAD8@": "\n".join(f"{IND8}LongVector v{k} = LongVector.fromArray(SPECIES, src, {k} * stride + e);" for k in range(N)),
        "@DIVIDE8@": "\n".join(l[4:] for l in divide_body().split("\n")),
        "@REDUCE8@": "\n".join(l[4:] for l in reduce_body().split("\n")),
        "@SCATTER8@": "\n".join(l[4:] for l in scatter_body().split("\n")),
        "@STATEDOC@": STATE_DOC if SPLIT else " * <p>Instances are immutable and thread-safe.",
        "@STATEFIELD@": STATE_FIELD if SPLIT else "",
        "@SPLITGROUP@": split_group_body(), "@SPLIT@": split_body(), "@SPLITPARAMS@": split_params(),
        "@TOLANESTAIL@": to_lanes_tail(), "@PLAINTAIL@": plain_tail(), "@FROMSCALAR@": from_lanes_scalar_body(),
        "@REDUCE3P@": reduce_below_3p(),
        "@VARIANT@": "plain (no operand masks)" if PLAIN else "masked operands",
        "@BITS@": str(BITS), "@WORDS@": str(WORDS), "@N@": str(N), "@BOUND@": str(BOUND), "@SCALE@": str(SCALE),
        "@RBITS@": str(W * N), "@MBITS@": str(64 * WORDS), "@FIELD@": FIELD,
        "@MULOUT@": str(2 * BOUND - W * N),
    }
    text = TEMPLATE
    for k in ("@MULMETHODS@", "@FROMLANES@", "@FROMPLAIN@"):   # blocks that hold further placeholders first
        text = text.replace(k, subst.pop(k))
    for k, v in subst.items():
        text = text.replace(k, v)
    print(text)


STATE_DOC = ''' * <p>Not thread-safe: the two halves of a multiplication, and of a conversion back, hand the limbs over in the
 * instance's scratch. One instance per thread (the batch-affine slopes hold one each).'''

STATE_FIELD = '''
    /** The limbs handed from one half of a multiplication or conversion to the other, LANES apart. */
    private final long[] state = new long[LIMBS * LANES];
'''

FROM_LANES_SPLIT = r'''    @Override
    public void fromLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff, int elementStride) {
        long[] words = new long[WORDS * LANES];
        for (int g = 0; g < count; g += LANES) {
            divideGroup(src, stride, from + g);
            reduceGroup(state, LANES, 0, dst, dstOff, elementStride, words, g, count);
        }
    }

    /**
     * v·2^-@SCALE@ mod p for one vector of lane-form values into {@link #state}: v + k·p with k = −v·p⁻¹ mod 2^@SCALE@ is
     * exactly divisible by 2^@SCALE@, and the quotient is below 3p.
     */
    private void divideGroup(long[] src, int stride, int e) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);
        LongVector PINV = LongVector.broadcast(SPECIES, pInv29).and(LO32);
@PONLY@
@LOAD8@
        // k = −v·p⁻¹ mod 2^@SCALE@ (the shift pair keeps @SCALE@ bits in a form that tells C2 the upper half is zero)
        LongVector k = v0.and(LO32).mul(PINV).lanewise(VectorOperators.LSHL, 64 - SCALE_BITS)
                .lanewise(VectorOperators.LSHR, 64 - SCALE_BITS);
@DIVIDE8@
@STORESTATE@
    }

    /**
     * One vector of values below 3p (normalised limbs at lane index e) reduced and scattered to elements
     * {@code g, g + 1, …} (below {@code count}) of dst: v − p and v − 2p side by side on the 29-bit limbs (signed limb
     * differences, the carry an arithmetic shift), the smallest non-negative of v, v − p, v − 2p chosen by lane masks,
     * packed into 64-bit words, stored in {@code words} (WORDS · LANES longs) and copied to the elements.
     */
    private void reduceGroup(long[] src, int stride, int e, long[] dst, int dstOff, int elementStride, long[] words,
                             int g, int count) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);
@PCONSTS@
@LOAD8@
@REDUCE8@
@SCATTER8@
    }

'''

FROM_PLAIN_SPLIT = r'''    @Override
    public void fromPlainLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff) {
        long[] words = new long[WORDS * LANES];
        for (int g = 0; g < count; g += LANES) {
            reduceGroup(src, stride, from + g, dst, dstOff, WORDS, words, g, count);
        }
    }

'''

FROM_LANES_UNSPLIT = r'''    @Override
    public void fromLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff, int elementStride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);
        LongVector PINV = LongVector.broadcast(SPECIES, pInv29).and(LO32);
@PCONSTS@
        long[] words = new long[WORDS * LANES];
        for (int g = 0; g < count; g += LANES) {
            int e = from + g;
@LOAD@
            // k = −v·p⁻¹ mod 2^@SCALE@ (the shift pair keeps @SCALE@ bits in a form that tells C2 the upper half is zero)
            LongVector k = v0.and(LO32).mul(PINV).lanewise(VectorOperators.LSHL, 64 - SCALE_BITS)
                    .lanewise(VectorOperators.LSHR, 64 - SCALE_BITS);
@DIVIDE@
@REDUCE@
@SCATTER@
        }
    }

'''

FROM_PLAIN_UNSPLIT = r'''    @Override
    public void fromPlainLanes(long[] src, int stride, int from, int count, long[] dst, int dstOff) {
        // Whole vectors: v − p and v − 2p side by side on the 29-bit limbs (signed limb differences, the carry an
        // arithmetic shift), the smallest non-negative of v, v − p, v − 2p chosen by lane masks, packed into
        // 64-bit words, stored in a small buffer and copied to the elements.
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector LO32 = LongVector.broadcast(SPECIES, 0xFFFF_FFFFL);
@PCONSTS@
        int elementStride = WORDS;
        long[] words = new long[WORDS * LANES];
        for (int g = 0; g < count; g += LANES) {
            int e = from + g;
@LOAD@
@REDUCE@
@SCATTER@
        }
    }

'''

TEMPLATE = r'''// GENERATED by scripts/gen-lane-montgomery.py --bits @BITS@ (@VARIANT@) — do not edit by hand; change the generator and re-run it.
package io.proofline.algebra.field;

import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorMask;
import jdk.incubator.vector.VectorOperators;

/**
 * {@link LaneMontgomery} for @BITS@-bit moduli in @WORDS@ 64-bit words (@FIELD@): @N@ limbs of 29 bits per element.
 *
 * <p><b>Representation.</b> The lane form of x is any value ≡ x·2^@RBITS@ mod p (R' = 2^@RBITS@ = 2^(29·@N@)) below
 * 2^@BOUND@, not reduced further. That set is closed under the multiplication, which computes a·b·R'⁻¹ by @N@
 * operand-scanning steps of 29 bits and needs no final subtraction: for inputs below 2^@BOUND@ the result is below
 * 2^@MULOUT@ + p &lt; 2^@BOUND@. Converting from the 64-bit-limb Montgomery form x·2^@MBITS@ is therefore a bit shift
 * (x·2^@MBITS@·2^@SCALE@ &lt; 2^@SCALE@·p &lt; 2^@BOUND@); converting back divides by 2^@SCALE@ with one @SCALE@-bit
 * Montgomery step, which leaves a value below 2^(@BOUND@−@SCALE@) + p &lt; 3p, and reduces.
 *
@STATEDOC@
 */
final class LaneMontgomery@BITS@ extends LaneMontgomery {

    /** 64-bit words per element in the field's Montgomery form. */
    static final int WORDS = @WORDS@;
    /** Limbs per element in lane form. */
    static final int LIMBS = @N@;
    /** Lane-form values are below 2^BOUND_BITS. */
    static final int BOUND_BITS = @BOUND@;
    /** Lane form is x·2^(29·LIMBS); the 64-bit form is x·2^(64·WORDS): they differ by this many bits. */
    private static final int SCALE_BITS = LIMB_BITS * LIMBS - 64 * WORDS;

    /** Lane indices of the first words of LANES consecutive elements WORDS longs apart (𝔽q) or 2·WORDS (𝔽q²). */
    private static final int[] STARTS_1 = starts(WORDS), STARTS_2 = starts(2 * WORDS);
@STATEFIELD@
    LaneMontgomery@BITS@(PrimeField field) {
        super(field, LIMBS, BOUND_BITS);
    }

    private static int[] startsFor(int elementStride) {
        return elementStride == WORDS ? STARTS_1 : elementStride == 2 * WORDS ? STARTS_2 : starts(elementStride);
    }

@MULMETHODS@

    @Override
    public void toLanes(long[] src, int srcOff, int elementStride, int count, long[] dst, int stride, int to) {
        int[] starts = startsFor(elementStride);
        int whole = count - count % LANES;
        for (int g = 0; g < whole; g += LANES) {
            splitGroup(src, srcOff + elementStride * g, starts, SCALE_BITS, dst, stride, to + g);
        }
        for (int i = whole; i < count; i++) {
@TOLANESTAIL@
        }
    }

    /**
     * {@link #split} for LANES elements whose first words are at {@code src[s + starts[i]]}, of x·2^shift (shift 0
     * or {@link #SCALE_BITS}): the words are gathered into vectors (one gather per word), the limbs stored as vectors.
     */
    private static void splitGroup(long[] src, int s, int[] starts, int shift, long[] dst, int stride, int d) {
@SPLITGROUP@
    }

@FROMLANES@    @Override
    public void fromLanesScalar(long[] src, int stride, int from, int count, long[] dst, int dstOff, int elementStride) {
        long inv = field.montgomeryInverse();
        for (int i = 0; i < count; i++) {
@FROMSCALAR@
        }
    }

    @Override
    public void toPlainLanes(long[] src, int srcOff, int count, long[] dst, int stride, int to) {
        int whole = count - count % LANES;
        for (int g = 0; g < whole; g += LANES) {
            splitGroup(src, srcOff + WORDS * g, STARTS_1, 0, dst, stride, to + g);
        }
        for (int i = whole; i < count; i++) {
@PLAINTAIL@
        }
    }

@FROMPLAIN@    @Override
    public void addGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector c = LongVector.zero(SPECIES), x;
@ADD@
    }

    @Override
    public void subGroup(long[] a, int ae, long[] b, int be, long[] r, int re, int stride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector c = LongVector.zero(SPECIES), x;
@SUB@
    }

    @Override
    public void scaleGroup(long[] a, int ae, long[] r, int re, int stride) {
        LongVector mask = LongVector.broadcast(SPECIES, LIMB_MASK);
        LongVector below = LongVector.zero(SPECIES);
        for (int k = 0; k < LIMBS; k++) {
            LongVector limb = LongVector.fromArray(SPECIES, a, k * stride + ae);
            limb.lanewise(VectorOperators.LSHL, SCALE_BITS).and(mask).or(below).intoArray(r, k * stride + re);
            below = limb.lanewise(VectorOperators.LSHR, LIMB_BITS - SCALE_BITS);
        }
    }

    /** Writes the @N@ limbs of bits [29k, 29k + 29) of the @WORDS@+1-word integer y to dst (lane index d). */
    private static void split(@SPLITPARAMS@, long[] dst, int stride, int d) {
@SPLIT@
    }

    /**
     * r = w mod p for w &lt; 3p: w − p and w − 2p computed side by side (independent borrow chains, no store and
     * reload between two conditional subtractions), the smallest non-negative one kept.
     */
@REDUCE3P@
}'''

if __name__ == "__main__":
    main()

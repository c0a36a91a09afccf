package io.proofline.algebra.curve;

import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;
import java.util.List;

/**
 * Points as snarkjs writes them in {@code proof.json} and {@code verification_key.json}: projective triples of
 * decimal strings, G1 {@code [x, y, "1"]}, G2 {@code [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]]}; infinity
 * {@code ["0", "1", "0"]} / {@code [["0","0"], ["1","0"], ["0","0"]]}. The JSON tree is plain {@link List}s of
 * {@link String}s (what any JSON library gives), so this class depends on none.
 *
 * <p>Decoding accepts z = 1 (affine), z = 0 (infinity) and, like snarkjs's {@code fromObject}, any other z as
 * Jacobian coordinates (x/z², y/z³); a two-element {@code [x, y]} is affine.
 */
public final class SnarkjsJsonPoints {

    private SnarkjsJsonPoints() {
    }

    /** The JSON tree of an affine point. */
    public static List<Object> toJson(CurveGroup g, long[] p) {
        CurveOps ops = g.newOps();
        PrimeField fp = g.baseField();
        int w = g.fieldWidth();
        if (ops.isInfinityAffine(p, 0)) {
            return g.overFp2()
                    ? List.of(List.of("0", "0"), List.of("1", "0"), List.of("0", "0"))
                    : List.of("0", "1", "0");
        }
        if (g.overFp2()) {
            int n = fp.limbs();
            return List.of(
                    List.of(fp.toDecimal(p, 0), fp.toDecimal(p, n)),
                    List.of(fp.toDecimal(p, w), fp.toDecimal(p, w + n)),
                    List.of("1", "0"));
        }
        return List.of(fp.toDecimal(p, 0), fp.toDecimal(p, w), "1");
    }

    /** Parses and fully validates (reduced, on curve, in subgroup) a point's JSON tree. */
    public static long[] fromJson(CurveGroup g, Object json) {
        if (!(json instanceof List<?> list) || (list.size() != 3 && list.size() != 2)) {
            throw malformed(g, "expected a list of 2 or 3 coordinates, got " + json);
        }
        CurveOps ops = g.newOps();
        var f = ops.field();
        int w = g.fieldWidth();
        long[] jac = new long[3 * w];
        for (int c = 0; c < list.size(); c++) {
            element(g, list.get(c), "xyz".charAt(c), jac, c * w);
        }
        if (list.size() == 2) {
            f.setOne(jac, 2 * w);
        }
        long[] p = new long[2 * w];
        if (f.isZero(jac, 2 * w)) {
            return p;
        }
        if (f.isOne(jac, 2 * w)) {
            System.arraycopy(jac, 0, p, 0, 2 * w);
        } else {
            ops.jacobianToAffine(jac, 0, p, 0);
        }
        ops.requireValid(p, 0, true, g.name() + " snarkjs JSON");
        return p;
    }

    private static void element(CurveGroup g, Object json, char coordinate, long[] r, int ro) {
        PrimeField fp = g.baseField();
        if (g.overFp2()) {
            if (!(json instanceof List<?> pair) || pair.size() != 2) {
                throw malformed(g, "coordinate " + coordinate + " must be a pair [c0, c1], got " + json);
            }
            number(g, fp, pair.get(0), coordinate + ".c0", r, ro);
            number(g, fp, pair.get(1), coordinate + ".c1", r, ro + fp.limbs());
        } else {
            number(g, fp, json, String.valueOf(coordinate), r, ro);
        }
    }

    private static void number(CurveGroup g, PrimeField fp, Object json, String coordinate, long[] r, int ro) {
        if (!(json instanceof String s)) {
            throw malformed(g, "coordinate " + coordinate + " must be a decimal string, got " + json);
        }
        BigInteger v;
        try {
            v = new BigInteger(s.trim());
        } catch (NumberFormatException e) {
            throw malformed(g, "coordinate " + coordinate + " is not a decimal integer: '" + s + "'");
        }
        if (v.signum() < 0 || v.compareTo(fp.modulus()) >= 0) {
            throw new InvalidPointException(InvalidPointException.Reason.NOT_REDUCED,
                    g.name() + " snarkjs JSON: coordinate " + coordinate + " is not reduced (not in [0, p))");
        }
        fp.fromBigInteger(v, r, ro);
    }

    private static InvalidPointException malformed(CurveGroup g, String what) {
        return new InvalidPointException(InvalidPointException.Reason.MALFORMED, g.name() + " snarkjs JSON: " + what);
    }
}

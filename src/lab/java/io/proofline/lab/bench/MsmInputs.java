package io.proofline.lab.bench;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.field.PrimeField;

import java.math.BigInteger;
import java.util.Random;
import java.util.SplittableRandom;

/**
 * The inputs the CPU MSM benches time: n distinct affine bases (a random walk from a multiple of the generator,
 * batch-normalised, so that no two are equal and no addition degenerates) and n uniform scalars below r, four limbs
 * each. Seeded, so that two benches and two runs time the same work.
 */
record MsmInputs(long[] bases, long[] scalars) {

    static MsmInputs random(CurveGroup g, int n) {
        CurveOps ops = g.newOps();
        SplittableRandom rnd = new SplittableRandom(7);
        int jw = 3 * g.fieldWidth();
        long[] jac = new long[n * jw];
        long[] step = ops.mulAffine(g.generator(), new BigInteger(200, new Random(3)));
        ops.affineToJacobian(ops.mulAffine(g.generator(), BigInteger.valueOf(5)), 0, jac, 0);
        for (int i = 1; i < n; i++) {
            ops.addAffineToJacobian(jac, (i - 1) * jw, step, 0, jac, i * jw);
        }
        long[] bases = new long[n * g.affineWidth()];
        ops.batchJacobianToAffine(jac, 0, n, bases, 0);
        long[] scalars = new long[4 * n];
        PrimeField fr = g.scalarField();
        for (int i = 0; i < n; i++) {
            System.arraycopy(PrimeField.toLimbs(fr.toBigInteger(fr.random(rnd)), 4), 0, scalars, 4 * i, 4);
        }
        return new MsmInputs(bases, scalars);
    }
}

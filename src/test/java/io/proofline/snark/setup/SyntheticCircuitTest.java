package io.proofline.snark.setup;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.Proof;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.Groth16Prover;
import io.proofline.snark.verifier.Groth16Verifier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The synthetic circuit's witness satisfies its constraints (evaluated here with {@link BigInteger}, apart from the
 * field code) and has the distribution asked for; a PoRep-like dev circuit proves and verifies.
 */
class SyntheticCircuitTest {

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    @ParameterizedTest
    @EnumSource(WitnessDistribution.class)
    void theWitnessSatisfiesEveryConstraintAndHasItsDistribution(WitnessDistribution distribution) {
        long seed = new SplittableRandom().nextLong();
        PrimeField fr = SnarkCurves.BN128.fr();
        BigInteger r = fr.modulus();
        SyntheticCircuit c = SyntheticCircuit.generate(fr, 20_000, 2, seed, distribution);
        int limbs = fr.limbs();
        BigInteger[] w = new BigInteger[c.nVars];
        int bits = 0;
        for (int v = 0; v < c.nVars; v++) {
            w[v] = fr.toBigInteger(c.witness, v * limbs);
            if (w[v].compareTo(BigInteger.ONE) <= 0) {
                bits++;
            }
        }
        assertEquals(BigInteger.ONE, w[0]);
        for (int i = 0; i < c.nConstraints; i++) {
            BigInteger a = BigInteger.ZERO;
            for (int k = c.aStart[i]; k < c.aStart[i + 1]; k++) {
                a = a.add(fr.toBigInteger(c.aCoef, k * limbs).multiply(w[c.aVar[k]]));
            }
            BigInteger b = BigInteger.ZERO;
            for (int k = c.bStart[i]; k < c.bStart[i + 1]; k++) {
                b = b.add(fr.toBigInteger(c.bCoef, k * limbs).multiply(w[c.bVar[k]]));
            }
            assertEquals(w[c.cVar[i]], a.multiply(b).mod(r), "constraint " + i + ", seed " + seed);
        }
        double share = (double) bits / c.nVars;
        if (distribution == WitnessDistribution.POREP) {
            assertTrue(share >= 0.9 && share <= 0.99, "0/1 share " + share + ", seed " + seed);
        } else {
            assertTrue(share < 0.1, "0/1 share " + share + ", seed " + seed);
        }
    }

    @ParameterizedTest
    @MethodSource("curves")
    void aPorepLikeDevCircuitProvesAndVerifies(SnarkCurve curve) {
        try (DevSetup.Result dev = DevSetup.generate(curve, 3000, 2, 17, 1, WitnessDistribution.POREP)) {
            Proof proof = new Groth16Prover(new CpuProverBackend()).prove(dev.key(), dev.witness());
            VerifyingKey vk = VerifyingKey.of(dev.key());
            assertTrue(Groth16Verifier.verify(vk, dev.witness().publicSignals(2), proof).valid());
        }
    }
}

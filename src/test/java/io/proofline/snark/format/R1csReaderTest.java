package io.proofline.snark.format;

import io.proofline.snark.R1cs;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.Witness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigInteger;
import java.util.OptionalInt;

import static org.junit.jupiter.api.Assertions.assertEquals;

class R1csReaderTest {

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void readsHeaderAndTheWitnessSatisfiesEveryConstraint(SnarkCurve curve) throws Exception {
        R1cs r1cs = R1csReader.read(SnarkjsFixtures.file(curve, "circuit.r1cs"));
        assertEquals(curve, r1cs.curve());
        assertEquals(6, r1cs.nWires());
        assertEquals(1, r1cs.nPubOut());
        assertEquals(1, r1cs.nPubIn());
        assertEquals(2, r1cs.nPrvIn());
        assertEquals(2, r1cs.nConstraints());
        try (Witness w = WtnsReader.read(SnarkjsFixtures.file(curve, "witness.wtns"))) {
            assertEquals(OptionalInt.empty(), r1cs.firstUnsatisfied(w));
        }
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void namesTheFirstConstraintAWrongWitnessBreaks(SnarkCurve curve) throws Exception {
        R1cs r1cs = R1csReader.read(SnarkjsFixtures.file(curve, "circuit.r1cs"));
        BigInteger[] values;
        try (Witness w = WtnsReader.read(SnarkjsFixtures.file(curve, "witness.wtns"))) {
            values = new BigInteger[w.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = w.value(i);
            }
        }
        // Wires: 1, out, a, b, c, ab. Breaking ab = a·b (constraint 0) also breaks out = ab·c + a (constraint 1),
        // so the first one must be named.
        values[5] = values[5].add(BigInteger.ONE);
        try (Witness bad = Witness.of(curve, values)) {
            assertEquals(OptionalInt.of(0), r1cs.firstUnsatisfied(bad));
            // circom writes ab = a·b as (−a)·(b) = −ab: with ab off by one, A·B = −33 but C = −34.
            BigInteger r = curve.fr().modulus();
            assertEquals("constraint 0 fails: A·w = " + r.subtract(BigInteger.valueOf(3)) + ", B·w = 11, C·w = "
                    + r.subtract(BigInteger.valueOf(34)), r1cs.describe(0, bad));
        }
        values[5] = values[5].subtract(BigInteger.ONE);
        values[1] = values[1].add(BigInteger.ONE); // out: only constraint 1
        try (Witness bad = Witness.of(curve, values)) {
            assertEquals(OptionalInt.of(1), r1cs.firstUnsatisfied(bad));
        }
    }
}

package io.proofline.snark.prover;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;
import io.proofline.snark.format.WtnsReader;
import io.proofline.snark.format.ZkeyReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.math.BigInteger;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SynthesisTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3");

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    /**
     * a = A·w and b = B·w against a BigInteger evaluation of the records (value = stored·R⁻² mod r, computed here
     * from the raw integer, independently of the Montgomery shortcut), and the snarkjs input rows a[n + s] = w[s].
     */
    @ParameterizedTest
    @MethodSource("curves")
    void evaluatesTheRowsOfTheSnarkjsKey(SnarkCurve curve) throws Exception {
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve(curve.name()).resolve("circuit.zkey"));
             Witness w = WtnsReader.read(MUL3.resolve(curve.name()).resolve("witness.wtns"), key);
             Arena arena = Arena.ofShared()) {
            Synthesized abc = Synthesis.evaluate(key, w, bytes -> arena.allocate(bytes, 8));
            PrimeField fr = curve.fr();
            BigInteger r = fr.modulus();
            BigInteger rInv2 = BigInteger.ONE.shiftLeft(128 * fr.limbs()).modInverse(r);
            int n = key.domainSize();
            BigInteger[][] expected = new BigInteger[2][n];
            for (BigInteger[] m : expected) {
                java.util.Arrays.fill(m, BigInteger.ZERO);
            }
            Coefficients coefs = key.coefficients();
            long[] raw = new long[fr.limbs()];
            int maxARow = 0;
            for (int i = 0; i < coefs.count(); i++) {
                io.proofline.snark.SegmentLimbs.read(coefs.records(), (long) i * Coefficients.recordBytes(fr) + 12,
                        fr.limbs(), raw, 0);
                BigInteger coef = PrimeField.limbsToBigInteger(raw, 0, fr.limbs()).multiply(rInv2).mod(r);
                int m = coefs.matrix(i);
                int row = coefs.row(i);
                expected[m][row] = expected[m][row].add(coef.multiply(w.value(coefs.signal(i)))).mod(r);
                if (m == Coefficients.A) {
                    maxARow = Math.max(maxARow, row);
                }
            }
            for (int row = 0; row < n; row++) {
                assertEquals(expected[0][row], abc.a().getBigInteger(row), "a[" + row + "]");
                assertEquals(expected[1][row], abc.b().getBigInteger(row), "b[" + row + "]");
                assertEquals(expected[0][row].multiply(expected[1][row]).mod(r), abc.c().getBigInteger(row),
                        "c[" + row + "]");
            }
            int nConstraints = maxARow - key.nPublic();
            for (int s = 0; s <= key.nPublic(); s++) {
                assertEquals(w.value(s), abc.a().getBigInteger(nConstraints + s), "input row " + s);
            }
        }
    }

    @Test
    void rejectsAWitnessOfTheWrongLength() throws Exception {
        SnarkCurve curve = SnarkCurves.BN128;
        try (ProvingKey key = ZkeyReader.read(MUL3.resolve(curve.name()).resolve("circuit.zkey"));
             Witness w = Witness.of(curve, BigInteger.ONE, BigInteger.TWO);
             Arena arena = Arena.ofShared()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Synthesis.evaluate(key, w, bytes -> arena.allocate(bytes, 8)));
            assertTrue(e.getMessage().contains("witness has 2 values but the key expects " + key.nVars()),
                    e.getMessage());
        }
    }
}

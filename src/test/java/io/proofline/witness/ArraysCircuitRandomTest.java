package io.proofline.witness;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random inputs (seeded) for the arrays fixture, whose outputs are simple sums of products: checks input
 * reduction mod p (negative values, values ≥ p, hex strings) and row-major flattening on both curves
 * against BigInteger arithmetic. Witness layout: 1, dot[0], dot[1], scaled, a, v[3], m[2][3], prod[2][3].
 */
class ArraysCircuitRandomTest {

    @ParameterizedTest
    @ValueSource(strings = {"arrays-bn128", "arrays-bls12381"})
    void outputsMatchBigIntegerArithmetic(String fixtureName) {
        var calculator = CircomWitnessCalculator.load(WitnessFixture.named(fixtureName).wasm());
        BigInteger p = calculator.prime();
        Random random = new Random(20261202L);

        for (int round = 0; round < 20; round++) {
            BigInteger a = randomValue(random, p);
            BigInteger[] v = {randomValue(random, p), randomValue(random, p), randomValue(random, p)};
            BigInteger[][] m = new BigInteger[2][3];
            for (BigInteger[] row : m) {
                for (int j = 0; j < 3; j++) {
                    row[j] = randomValue(random, p);
                }
            }
            Map<String, Object> input = new LinkedHashMap<>();
            input.put("a", encode(a, random));
            input.put("v", List.of(encode(v[0], random), encode(v[1], random), encode(v[2], random)));
            List<Object> rows = new ArrayList<>();
            for (BigInteger[] row : m) {
                rows.add(List.of(encode(row[0], random), encode(row[1], random), encode(row[2], random)));
            }
            input.put("m", rows);

            CircomWitness witness = calculator.calculate(input);

            for (int i = 0; i < 2; i++) {
                BigInteger dot = BigInteger.ZERO;
                for (int j = 0; j < 3; j++) {
                    dot = dot.add(m[i][j].multiply(v[j]));
                    assertThat(witness.get(8 + 3 * i + j)).as("m[%d][%d]", i, j).isEqualTo(m[i][j].mod(p));
                }
                assertThat(witness.get(1 + i)).as("dot[%d]", i).isEqualTo(dot.mod(p));
            }
            assertThat(witness.get(3)).as("scaled").isEqualTo(a.multiply(v[0].add(v[1]).add(v[2])).mod(p));
            assertThat(witness.get(4)).as("a").isEqualTo(a.mod(p));
        }
    }

    /**
     * Small, negative, near p, or above p (up to 2^260, 79 decimal and 65 hex digits: inside the input bound of 80
     * and 66): the calculator must reduce them all.
     */
    private static BigInteger randomValue(Random random, BigInteger p) {
        return switch (random.nextInt(4)) {
            case 0 -> BigInteger.valueOf(random.nextInt(1000));
            case 1 -> BigInteger.valueOf(-1 - random.nextInt(1000));
            case 2 -> p.subtract(BigInteger.valueOf(1 + random.nextInt(3)));
            default -> new BigInteger(260, random);
        };
    }

    /** As snarkjs users write them: a number, a decimal string or a hex string. */
    private static Object encode(BigInteger value, Random random) {
        return switch (random.nextInt(3)) {
            case 0 -> value;
            case 1 -> value.toString();
            default -> value.signum() < 0 ? value.toString() : "0x" + value.toString(16);
        };
    }
}

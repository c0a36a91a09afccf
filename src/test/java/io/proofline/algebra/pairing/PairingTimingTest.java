package io.proofline.algebra.pairing;

import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Quick timing (not a benchmark): median of a few runs of one pairing, a 4-pair product check, and each final
 * exponentiation strategy. Opt-in: {@code mvn test -Dtest=PairingTimingTest -Dpairing.timing=true}, or
 * {@link PairingTimingMain} on the test classpath (no JUnit needed).
 */
@EnabledIfSystemProperty(named = "pairing.timing", matches = "true")
class PairingTimingTest {

    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void reportTimings(PairingFixtures fx) {
        String line = PairingTimingMain.measure(fx);
        System.out.println(line);
        assertTrue(line.contains("ms"));
    }
}

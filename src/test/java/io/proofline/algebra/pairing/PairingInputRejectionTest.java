package io.proofline.algebra.pairing;

import io.proofline.algebra.curve.InvalidPointException;
import io.proofline.algebra.curve.InvalidPointException.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * fail-blsPairing.json: every input is rejected, for the reason go-ethereum gives, before any pairing runs; and every
 * valid vector passes the same checks (so the checks are not simply rejecting everything).
 */
class PairingInputRejectionTest {

    private static final Map<String, Reason> GETH_ERRORS = Map.of(
            "invalid input length", Reason.BAD_LENGTH,
            "invalid fp.Element encoding", Reason.NOT_REDUCED,
            "invalid field element top bytes", Reason.NOT_REDUCED,
            "invalid point: not on curve", Reason.NOT_ON_CURVE,
            "g1 point is not on correct subgroup", Reason.NOT_IN_SUBGROUP,
            "g2 point is not on correct subgroup", Reason.NOT_IN_SUBGROUP);

    @Test
    void everyFailingBlsPairingInputIsRejectedWithItsReason() {
        List<PairingFixtures.Vector> vectors = PairingFixtures.readVectors("fail-blsPairing.json");
        assertTrue(vectors.size() >= 9, "vectors: " + vectors.size());
        for (PairingFixtures.Vector v : vectors) {
            Reason expected = GETH_ERRORS.get(v.expectedError());
            assertNotNull(expected, "unmapped error '" + v.expectedError() + "' in " + v.name());
            InvalidPointException ex = assertThrows(InvalidPointException.class,
                    () -> PairingFixtures.BLS12_381.decodeValidated(v.input()), v.name());
            assertEquals(expected, ex.reason(), v.name() + ": " + ex.getMessage());
            if (v.expectedError().startsWith("g1")) {
                assertTrue(ex.getMessage().contains("G1"), ex.getMessage());
            } else if (v.expectedError().startsWith("g2")) {
                assertTrue(ex.getMessage().contains("G2"), ex.getMessage());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(PairingFixtures.class)
    void everyValidVectorPassesTheChecks(PairingFixtures fx) {
        for (PairingFixtures.Vector v : PairingFixtures.readVectors(fx.vectorFile())) {
            if (v.input().length > 0 || fx == PairingFixtures.BN254) {
                fx.decodeValidated(v.input());
            }
        }
    }
}

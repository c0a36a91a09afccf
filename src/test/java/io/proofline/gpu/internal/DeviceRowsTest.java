package io.proofline.gpu.internal;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.Coefficients;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.ConstraintRows;
import io.proofline.snark.setup.RandomCoefficients;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What of {@link DeviceRows} needs no GPU: the bytes it is charged, and which rows get a warp. */
class DeviceRowsTest {

    @Test
    void aKeysDeviceBytesAreItsRowsAndTheLongRowList() throws Exception {
        Path zkey = Path.of("src/test/resources/fixtures/bls12381/poseidon_hash/circuit.zkey");
        try (ProvingKey key = ZkeyReader.read(zkey); ConstraintRows rows = ConstraintRows.of(key)) {
            int entries = key.coefficients().count();
            // starts (2N + 1 words), a signal word and a 32-byte value per entry, the long-row list
            long expected = 4L * (2L * key.domainSize() + 1) + 36L * entries + 4L * (entries / 33);
            assertEquals(expected, DeviceRows.bytes(key));
            assertEquals(rows.byteSize() + DeviceRows.longRowListBytes(entries), DeviceRows.bytes(key));
            assertEquals(ResidentKey.bytes(key, false, false) + DeviceRows.bytes(key),
                    ResidentKey.bytes(key, false, true));
            assertEquals(ResidentKey.bytes(key, true, false) + DeviceRows.bytes(key),
                    ResidentKey.bytes(key, true, true));
        }
    }

    /** Long rows are exactly those of more than 32 entries (A and B together), and always fit their list. */
    @Test
    void listsTheRowsLongerThanAWarp() {
        PrimeField fr = SnarkCurves.BN128.fr();
        try (Arena arena = Arena.ofShared()) {
            Coefficients coefficients = Coefficients.allocate(arena, fr, 33 + 32 + 40 + 1);
            int i = 0;
            // row 0: 33 entries (long); row 1: 32 (not long); row 2: 20 A + 20 B (long); row 3: 1; row 4: none
            for (int k = 0; k < 33; k++) {
                coefficients.set(i++, Coefficients.A, 0, k % 3, fr.fromLong(1), 0);
            }
            for (int k = 0; k < 32; k++) {
                coefficients.set(i++, k % 2, 1, 1, fr.fromLong(2), 0);
            }
            for (int k = 0; k < 40; k++) {
                coefficients.set(i++, k < 20 ? Coefficients.A : Coefficients.B, 2, 2, fr.fromLong(3), 0);
            }
            coefficients.set(i, Coefficients.B, 3, 0, fr.fromLong(4), 0);
            try (ConstraintRows rows = ConstraintRows.of(coefficients, 8, 3)) {
                assertArrayEquals(new int[] {0, 2}, DeviceRows.longRows(rows));
                assertTrue(DeviceRows.longRowListBytes(rows.entries()) >= 4 * 2);
            }
        }
    }

    @Test
    void theLongRowListFitsRandomRowsOfBothCurves() {
        for (var curve : SnarkCurves.all()) {
            try (Arena arena = Arena.ofShared()) {
                Coefficients coefficients = RandomCoefficients.generate(curve.fr(), arena, 256, 50, 7, true);
                try (ConstraintRows rows = ConstraintRows.of(coefficients, 256, 50)) {
                    List<Integer> expected = new ArrayList<>();
                    for (int r = 0; r < rows.rows(); r++) {
                        if (rows.end(r, Coefficients.B) - rows.start(r, Coefficients.A) > DeviceRows.LONG_ROW_ENTRIES) {
                            expected.add(r);
                        }
                    }
                    assertEquals(List.of(128), expected, "the generator's one long row");
                    assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(),
                            DeviceRows.longRows(rows));
                    assertEquals(ConstraintRows.byteSize(256, rows.entries(), curve.fr().bytes())
                            + DeviceRows.longRowListBytes(rows.entries()), DeviceRows.bytes(256, rows.entries(),
                            curve.fr().bytes()));
                }
            }
        }
    }
}

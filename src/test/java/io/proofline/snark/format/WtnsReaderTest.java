package io.proofline.snark.format;

import io.proofline.snark.SnarkCurve;
import io.proofline.snark.Witness;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;

class WtnsReaderTest {

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void readsTheValuesSnarkjsExportsAsJson(SnarkCurve curve) throws Exception {
        JsonNode expected = SnarkjsFixtures.json(curve, "witness.json");
        try (Witness w = WtnsReader.read(SnarkjsFixtures.file(curve, "witness.wtns"))) {
            assertEquals(curve, w.curve());
            assertEquals(expected.size(), w.size());
            long[] mont = w.montgomeryLimbs();
            for (int i = 0; i < w.size(); i++) {
                BigInteger v = new BigInteger(expected.get(i).asString());
                assertEquals(v, w.value(i), "w[" + i + "]");
                assertEquals(v, curve.fr().toBigInteger(mont, i * curve.fr().limbs()), "Montgomery w[" + i + "]");
            }
        }
    }

    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void readsFromMemoryAndWritesSnarkjsBytes(SnarkCurve curve) throws Exception {
        byte[] original = Files.readAllBytes(SnarkjsFixtures.file(curve, "witness.wtns"));
        Path copy = tmp.resolve("copy.wtns");
        try (Witness w = WtnsReader.view(MemorySegment.ofArray(original), "upload.wtns")) {
            WtnsWriter.write(w, copy);
        }
        assertArrayEquals(original, Files.readAllBytes(copy));
    }

    /** An upload is checked in place: the witness's values are a slice of the caller's bytes, no copy off the heap. */
    @ParameterizedTest
    @MethodSource("io.proofline.snark.format.SnarkjsFixtures#curves")
    void aViewOfAnUploadCopiesNothing(SnarkCurve curve) throws Exception {
        byte[] original = Files.readAllBytes(SnarkjsFixtures.file(curve, "witness.wtns"));
        try (Witness w = WtnsReader.view(MemorySegment.ofArray(original), "upload.wtns")) {
            MemorySegment values = w.canonical();
            assertFalse(values.isNative(), "the values are not copied off the heap");
            assertSame(original, values.heapBase().orElseThrow(), "the values are the upload's own bytes");
            int offset = (int) values.address(); // a heap segment's address is its offset in the array
            original[offset] ^= 1;
            assertEquals(original[offset], values.get(ValueLayout.JAVA_BYTE, 0), "a change to the upload shows");
        }
    }
}

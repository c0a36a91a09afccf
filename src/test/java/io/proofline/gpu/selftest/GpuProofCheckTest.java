package io.proofline.gpu.selftest;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The part of the fixtures check that runs on the host: which fixtures it finds. */
class GpuProofCheckTest {

    @Test
    void fixturesAreEveryCommittedCircuitOfBothCurves() throws Exception {
        Path root = Path.of("src/test/resources/fixtures");
        List<Path> found = GpuProofCheck.fixtures(root);
        assertTrue(found.stream().anyMatch(p -> p.getParent().getFileName().toString().equals("bn128")), found.toString());
        assertTrue(found.stream().anyMatch(p -> p.getParent().getFileName().toString().equals("bls12381")),
                found.toString());
        for (Path p : found) {
            assertTrue(p.resolve("circuit.zkey").toFile().isFile() && p.resolve("witness.wtns").toFile().isFile(), p.toString());
        }
        assertEquals(found.stream().sorted().toList(), found, "sorted");
        assertEquals(List.of(), GpuProofCheck.fixtures(root.resolve("no-such-folder")));
    }
}

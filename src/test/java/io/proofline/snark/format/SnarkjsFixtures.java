package io.proofline.snark.format;

import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Where the small snarkjs-made fixtures of these tests live (see src/test/resources/snarkjs/mul3/README.md). */
final class SnarkjsFixtures {

    static final Path ROOT = Path.of("src/test/resources/snarkjs/mul3");
    static final ObjectMapper JSON = JsonMapper.builder().build();

    private SnarkjsFixtures() {
    }

    static Path file(SnarkCurve curve, String name) {
        return ROOT.resolve(curve.name()).resolve(name);
    }

    static JsonNode json(SnarkCurve curve, String name) throws Exception {
        return JSON.readTree(Files.readString(file(curve, name)));
    }

    /** Both curves, for {@code @MethodSource}. */
    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }
}

package io.proofline.algebra;

import tools.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

/**
 * go-ethereum's precompile test vectors, copied into the test resources ({@code vectors/eth-precompiles/}, see the
 * README there) so that a clone of the repository alone runs the tests that check against them.
 */
public final class EthPrecompileVectors {

    private static final String DIR = "/vectors/eth-precompiles/";

    private EthPrecompileVectors() {
    }

    /** The vectors of one file: each a map of {@code Input}, {@code Expected} or {@code ExpectedError}, {@code Name}. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> load(String file) {
        try (InputStream in = EthPrecompileVectors.class.getResourceAsStream(DIR + file)) {
            if (in == null) {
                throw new IllegalArgumentException("no test vector file " + DIR + file + " on the test classpath");
            }
            return new ObjectMapper().readValue(in, List.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

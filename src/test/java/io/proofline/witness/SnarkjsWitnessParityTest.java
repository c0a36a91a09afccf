package io.proofline.witness;

import io.proofline.interop.SnarkjsCli;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.snark.Witness;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every committed circom fixture (both curves), 50 random valid inputs each plus its committed input: the {@code .wtns}
 * of our witness is byte-identical to snarkjs's, computed by the code {@code snarkjs wtns calculate} runs, in one node
 * process for all of them ({@code scripts/node/wtns-batch.js}). The first computation of each fixture records its
 * witness graph, the later ones run it, or the wasm where an input leaves the recorded path (range_compare, lessthan:
 * {@code IsZero}'s branch on a zero difference) or the circuit logs (assert).
 */
@Tag("slow")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SnarkjsWitnessParityTest {

    private static final int RANDOM_INPUTS = 50;
    private static final Path RESOURCES = Path.of("src/test/resources");

    private final Map<String, List<Map<String, Object>>> inputs = new LinkedHashMap<>();
    private Path snarkjsOut;

    static Stream<Path> fixtures() throws IOException {
        List<Path> all = new ArrayList<>();
        for (String root : List.of("fixtures/bn128", "fixtures/bls12381", "witness")) {
            try (Stream<Path> dirs = Files.list(RESOURCES.resolve(root))) {
                dirs.filter(d -> Files.exists(d.resolve("circuit.wasm"))).sorted().forEach(all::add);
            }
        }
        return all.stream();
    }

    @BeforeAll
    void computeWithSnarkjs(@TempDir Path tmp) throws Exception {
        SnarkjsCli.assumeAvailable();
        List<Map<String, Object>> batch = new ArrayList<>();
        for (Path fixture : fixtures().toList()) {
            String key = fixture.toString();
            Random random = new Random(key.hashCode());
            List<Map<String, Object>> list = new ArrayList<>();
            list.add(JsonMapper.shared().readValue(fixture.resolve("input.json").toFile(), Map.class));
            for (int i = 0; i < RANDOM_INPUTS; i++) {
                list.add(randomInput(circuitName(fixture), random));
            }
            inputs.put(key, list);
            Path out = Files.createDirectories(tmp.resolve("out").resolve(String.valueOf(batch.size())));
            batch.add(Map.of("wasm", fixture.resolve("circuit.wasm").toAbsolutePath().toString(),
                    "inputs", list.stream().map(SnarkjsWitnessParityTest::qualified).toList(),
                    "out", out.toString()));
        }
        Path batchFile = tmp.resolve("batch.json");
        JsonMapper.shared().writeValue(batchFile.toFile(), batch);
        runNode(batchFile);
        snarkjsOut = tmp.resolve("out");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixtures")
    void everyWitnessIsByteIdenticalToSnarkjs(Path fixture) throws Exception {
        List<Map<String, Object>> list = inputs.get(fixture.toString());
        Path out = snarkjsOut.resolve(String.valueOf(new ArrayList<>(inputs.keySet()).indexOf(fixture.toString())));
        assertThat(Files.readAllBytes(out.resolve("0.wtns"))).as("snarkjs's committed witness, recomputed")
                .isEqualTo(Files.readAllBytes(fixture.resolve("witness.wtns")));
        CircomWitnessCalculator calculator = CircomWitnessCalculator.load(fixture.resolve("circuit.wasm"));
        Map<WitnessEngine, Integer> engines = new EnumMap<>(WitnessEngine.class);
        for (int i = 0; i < list.size(); i++) {
            CircomWitness witness = calculator.calculate(list.get(i));
            engines.merge(witness.engine(), 1, Integer::sum);
            assertThat(wtns(witness)).as("%s input %d %s (by %s)", fixture, i, list.get(i), witness.engine())
                    .isEqualTo(Files.readAllBytes(out.resolve(i + ".wtns")));
        }
        String name = circuitName(fixture);
        if (name.equals("assert")) {
            assertThat(engines).as("a circuit that logs runs on its wasm").containsOnlyKeys(WitnessEngine.WASM);
        } else {
            assertThat(engines.getOrDefault(WitnessEngine.GRAPH, 0)).as("computed by the graph")
                    .isGreaterThan(list.size() / 2);
        }
        if (name.equals("range_compare") || name.equals("lessthan")) {
            assertThat(engines.getOrDefault(WitnessEngine.WASM, 0)).as("inputs off the recorded path, by the wasm")
                    .isGreaterThan(1);
        }
    }

    private static byte[] wtns(CircomWitness witness) throws IOException {
        SnarkCurve curve = SnarkCurves.byScalarPrime(witness.prime()).orElseThrow();
        Path file = Files.createTempFile("parity", ".wtns");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(witness.size() * (long) witness.n8(), 8);
            values.copyFrom(MemorySegment.ofArray(witness.toLittleEndianBytes()));
            WtnsWriter.write(new Witness(curve, witness.size(), values, null), file);
            return Files.readAllBytes(file);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    private static void runNode(Path batchFile) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder("node", "scripts/node/wtns-batch.js", batchFile.toString())
                .redirectErrorStream(true);
        builder.environment().put("NODE_PATH", SnarkjsCli.executable().toAbsolutePath().getParent().getParent()
                .toString());
        Process node = builder.start();
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(5, TimeUnit.MINUTES)).as("node finished").isTrue();
        assertThat(node.exitValue()).as("node: %s", output).isZero();
    }

    /** fixtures/bn128/range_compare → range_compare; witness/lessthan-bls12381 → lessthan. */
    private static String circuitName(Path fixture) {
        String dir = fixture.getFileName().toString();
        return fixture.getParent().getFileName().toString().equals("witness") ? dir.substring(0, dir.indexOf('-'))
                : dir;
    }

    /**
     * A random input the circuit accepts: field elements where any value goes, bits, and values of the width a
     * gadget checks (Num2Bits(64), LessThan(16)), with equal values now and then so that both sides of the
     * circuits' {@code IsZero} branches are taken.
     */
    private static Map<String, Object> randomInput(String circuit, Random r) {
        Map<String, Object> in = new LinkedHashMap<>();
        switch (circuit) {
            case "poseidon_hash" -> in.put("in", List.of(field(r), field(r), field(r)));
            case "mimc_sponge" -> {
                in.put("ins", List.of(field(r), field(r)));
                in.put("k", field(r));
            }
            case "merkle_poseidon" -> {
                in.put("leaf", field(r));
                in.put("pathElements", List.of(field(r), field(r), field(r), field(r)));
                in.put("pathIndices", List.of(bits(r, 1), bits(r, 1), bits(r, 1), bits(r, 1)));
            }
            case "range_compare" -> {
                String value = bits(r, 64);
                in.put("value", value);
                in.put("lower", r.nextInt(5) == 0 ? value : bits(r, 64));
                in.put("upper", r.nextInt(5) == 0 ? value : bits(r, 64));
                in.put("bitsOf", bits(r, 16));
            }
            case "arrays" -> {
                in.put("a", field(r));
                in.put("v", List.of(field(r), field(r), field(r)));
                in.put("m", List.of(List.of(field(r), field(r), field(r)), List.of(field(r), field(r), field(r))));
            }
            case "assert" -> {
                in.put("x", String.valueOf(r.nextInt(10)));
                in.put("y", field(r));
            }
            case "bus" -> {
                in.put("p", Map.of("x", field(r), "y", field(r)));
                in.put("ps", List.of(Map.of("x", field(r), "y", field(r)), Map.of("x", field(r), "y", field(r))));
                in.put("k", List.of(field(r), field(r)));
            }
            case "lessthan" -> {
                in.put("a", r.nextInt(5) == 0 ? "0" : bits(r, 16));
                in.put("b", bits(r, 16));
            }
            default -> throw new IllegalStateException("no input generator for the fixture circuit " + circuit
                    + ": add one");
        }
        return in;
    }

    /** Bus inputs as circom 2.2 names them ({@code p.x}, {@code ps[1].y}): snarkjs 0.7.6 does not qualify them. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> qualified(Map<String, Object> input) {
        Map<String, Object> flat = new LinkedHashMap<>();
        input.forEach((name, value) -> {
            if (value instanceof Map<?, ?> bus) {
                bus.forEach((field, v) -> flat.put(name + "." + field, v));
            } else if (value instanceof List<?> list && !list.isEmpty() && list.getFirst() instanceof Map<?, ?>) {
                for (int i = 0; i < list.size(); i++) {
                    int index = i;
                    ((Map<String, Object>) list.get(i)).forEach((field, v) -> flat.put(name + "[" + index + "]." + field, v));
                }
            } else {
                flat.put(name, value);
            }
        });
        return flat;
    }

    /** Any value below 2^256, so that some are reduced mod p (the calculator and snarkjs both reduce them). */
    private static String field(Random r) {
        return new BigInteger(r.nextInt(4) == 0 ? 256 : 253, r).toString();
    }

    private static String bits(Random r, int n) {
        return new BigInteger(n, r).toString();
    }
}

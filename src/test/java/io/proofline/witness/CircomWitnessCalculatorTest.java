package io.proofline.witness;

import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;
import io.proofline.snark.format.WtnsWriter;
import io.proofline.witness.CalculatorOptions.ExecutionMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Our witnesses against snarkjs's, for every fixture circuit, compiled and interpreted. */
class CircomWitnessCalculatorTest {

    static final BigInteger BN128_R =
            new BigInteger("21888242871839275222246405745257275088548364400416034343698204186575808495617");
    static final BigInteger BLS12_381_R =
            new BigInteger("52435875175126190479447740508185965837690552500527637822603658699938581184513");

    static Stream<Arguments> fixturesAndModes() {
        return WitnessFixture.all().flatMap(f -> Stream.of(ExecutionMode.values()).map(m -> Arguments.of(f, m)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("fixturesAndModes")
    void witnessEqualsSnarkjs(WitnessFixture fixture, ExecutionMode mode) {
        var calculator = CircomWitnessCalculator.load(fixture.wasm(), CalculatorOptions.defaults().withMode(mode));

        CircomWitness witness = calculator.calculate(WitnessInput.readJson(fixture.input()));

        assertThat(witness.values()).containsExactlyElementsOf(fixture.expectedWitness());
        assertThat(witness.size()).isEqualTo(calculator.witnessSize());
        assertThat(witness.get(0)).isEqualTo(BigInteger.ONE);
    }

    /**
     * The service's path: the input streamed from its file (never a tree) and flattened into the witness's own
     * off-heap memory, which the witness then fills. The first computation records the graph, the next ones evaluate
     * it, so both engines read the flattened input from the memory they write the witness into.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.proofline.witness.WitnessFixture#all")
    void aStreamedInputComputesTheWitnessInTheCallersMemory(WitnessFixture fixture) {
        var calculator = CircomWitnessCalculator.load(fixture.wasm());
        InputSource streamed = InputJsonReader.source(() -> InputJsonReader.parser(Files.newInputStream(fixture.input())));
        long bytes = (long) calculator.witnessSize() * calculator.n8();
        List<WitnessEngine> engines = new ArrayList<>();
        for (int run = 0; run < 3; run++) {
            try (Arena arena = Arena.ofShared()) { // the wasm runs on a thread of its own, under its deadline
                MemorySegment out = arena.allocate(bytes, 64);
                engines.add(calculator.calculateInto(streamed, out).engine());
                byte[] values = out.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                for (int i = 0; i < calculator.witnessSize(); i++) {
                    assertThat(Bytes.fromLittleEndian(values, i * calculator.n8(), calculator.n8()))
                            .as("value %d, run %d", i, run).isEqualTo(fixture.expectedWitness().get(i));
                }
            }
        }
        assertThat(engines.getFirst()).isEqualTo(WitnessEngine.WASM);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.proofline.witness.WitnessFixture#all")
    void wtnsFileIsByteIdenticalToSnarkjs(WitnessFixture fixture, @TempDir Path tmp) throws Exception {
        CircomWitness witness = CircomWitnessCalculator.load(fixture.wasm()).calculate(WitnessInput.readJson(fixture.input()));

        // The file the prover's own writer makes from our values, against the one snarkjs wrote.
        SnarkCurve curve = SnarkCurves.byScalarPrime(witness.prime()).orElseThrow();
        Path file = tmp.resolve("out.wtns");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment values = arena.allocate(witness.size() * (long) witness.n8(), 8);
            values.copyFrom(MemorySegment.ofArray(witness.toLittleEndianBytes()));
            WtnsWriter.write(new Witness(curve, witness.size(), values, null), file);
        }
        assertThat(Files.readAllBytes(file)).isEqualTo(fixture.wtns());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.proofline.witness.WitnessFixture#all")
    void reportsThePrimeOfTheCurveItWasCompiledFor(WitnessFixture fixture) {
        var calculator = CircomWitnessCalculator.load(fixture.wasm());

        BigInteger expected = fixture.name().endsWith("-bn128") ? BN128_R : BLS12_381_R;
        assertThat(calculator.prime()).isEqualTo(expected);
        assertThat(calculator.n8()).isEqualTo(32);
        assertThat(calculator.circomVersion()).isEqualTo(2);
        assertThat(Bytes.fromLittleEndian(calculator.calculate(WitnessInput.readJson(fixture.input())).primeLittleEndian(), 0, 32))
                .isEqualTo(expected);
    }

    @Test
    void littleEndianBytesAreWtnsSectionTwo() {
        WitnessFixture fixture = WitnessFixture.named("arrays-bls12381");
        CircomWitness witness = CircomWitnessCalculator.load(fixture.wasm()).calculate(WitnessInput.readJson(fixture.input()));

        byte[] wtns = fixture.wtns();
        byte[] section2 = Arrays.copyOfRange(wtns, wtns.length - witness.size() * 32, wtns.length);
        assertThat(witness.toLittleEndianBytes()).isEqualTo(section2);
    }

    @Test
    void collectsTheCircuitsLogLines() {
        List<String> sink = new ArrayList<>();
        WitnessFixture fixture = WitnessFixture.named("assert-bn128");
        var calculator = CircomWitnessCalculator.load(fixture.wasm(), CalculatorOptions.defaults().withLogSink(sink::add));

        CircomWitness witness = calculator.calculate(WitnessInput.readJson(fixture.input()));

        // What snarkjs prints for the same input: log("bounded: x =", x, "y =", y).
        assertThat(witness.log()).containsExactly("bounded: x = 3 y = 5");
        assertThat(sink).containsExactly("bounded: x = 3 y = 5");
    }

    @Test
    void sanityCheckModeGivesTheSameWitness() {
        WitnessFixture fixture = WitnessFixture.named("lessthan-bls12381");
        var calculator = CircomWitnessCalculator.load(fixture.wasm(), CalculatorOptions.defaults().withSanityCheck(true));

        assertThat(calculator.calculate(WitnessInput.readJson(fixture.input())).values())
                .containsExactlyElementsOf(fixture.expectedWitness());
    }

    @Test
    void oneCalculatorServesManyThreads() throws Exception {
        WitnessFixture fixture = WitnessFixture.named("lessthan-bls12381");
        var calculator = CircomWitnessCalculator.load(fixture.wasm());
        WitnessInput input = WitnessInput.readJson(fixture.input());
        List<BigInteger> expected = fixture.expectedWitness();

        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<CircomWitness>> results = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                results.add(pool.submit(() -> calculator.calculate(input)));
            }
            for (Future<CircomWitness> result : results) {
                assertThat(result.get().values()).containsExactlyElementsOf(expected);
            }
        }
    }

    @Test
    void calculatesFromAPlainMap() {
        WitnessFixture fixture = WitnessFixture.named("assert-bn128");
        CircomWitness witness = CircomWitnessCalculator.load(fixture.wasm()).calculate(Map.of("x", 4, "y", "-2"));

        // z = x·y = -8 mod r
        assertThat(witness.get(1)).isEqualTo(BN128_R.subtract(BigInteger.valueOf(8)));
    }
}

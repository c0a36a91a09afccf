package io.proofline.cli;

import io.proofline.interop.SnarkjsCli;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code dev-circuit} output is a real snarkjs setup: snarkjs proves with our zkey and witness and verifies against our
 * verification_key.json (which checks the H points' coset reasoning end to end), and our prover's proof verifies too.
 */
@Tag("slow")
class DevCircuitCommandTest {

    static Stream<SnarkCurve> curves() {
        return SnarkCurves.all().stream();
    }

    @ParameterizedTest
    @MethodSource("curves")
    void snarkjsProvesAndVerifiesWithTheDevKey(SnarkCurve curve, @TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"dev-circuit", "--curve", curve.name(), "--constraints", "700", "--out",
                dir.toString(), "--seed", "42"}, new PrintStream(out), new PrintStream(new ByteArrayOutputStream()));
        assertEquals(0, rc);
        assertTrue(out.toString().contains("INSECURE"), out.toString());
        Path vk = dir.resolve("verification_key.json");
        assertEquals(0, FixtureProofsTest.cli("prove", dir.resolve("circuit.zkey"), dir.resolve("witness.wtns"),
                dir.resolve("ours.json"), dir.resolve("ours-public.json")));
        assertEquals(0, FixtureProofsTest.cli("verify", vk, dir.resolve("ours-public.json"), dir.resolve("ours.json")));

        SnarkjsCli.assumeAvailable();
        run("groth16", "prove", dir.resolve("circuit.zkey"), dir.resolve("witness.wtns"),
                dir.resolve("proof.json"), dir.resolve("public.json"));
        String verify = run("groth16", "verify", vk, dir.resolve("public.json"), dir.resolve("proof.json"));
        assertTrue(verify.contains("OK!"), "snarkjs verify of its own proof with our key: " + verify);
        String ours = run("groth16", "verify", vk, dir.resolve("ours-public.json"), dir.resolve("ours.json"));
        assertTrue(ours.contains("OK!"), "snarkjs verify of our proof: " + ours);
    }

    private static String run(Object... args) throws Exception {
        SnarkjsCli.Result r = SnarkjsCli.run(Stream.of(args).map(Object::toString).toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }
}

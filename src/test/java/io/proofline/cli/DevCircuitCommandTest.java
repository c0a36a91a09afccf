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

    /**
     * {@code --domain} pads the domain past what the circuit needs (a/b/c and H dominate, for memory tests): still a
     * valid setup, proved and verified by our prover and by snarkjs; a domain that is not a power of two is refused.
     */
    @org.junit.jupiter.api.Test
    void aPaddedDomainIsAValidSetup(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"dev-circuit", "--curve", "bn128", "--constraints", "100", "--domain", "1024",
                "--out", dir.toString(), "--seed", "7"}, new PrintStream(out), new PrintStream(new ByteArrayOutputStream()));
        assertEquals(0, rc);
        assertTrue(out.toString().contains("100 constraints, 106 variables, 2 public, domain 2^10"), out.toString());
        Path vk = dir.resolve("verification_key.json");
        assertEquals(0, FixtureProofsTest.cli("prove", dir.resolve("circuit.zkey"), dir.resolve("witness.wtns"),
                dir.resolve("ours.json"), dir.resolve("ours-public.json")));
        assertEquals(0, FixtureProofsTest.cli("verify", vk, dir.resolve("ours-public.json"), dir.resolve("ours.json")));
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(2, Cli.run(new String[] {"dev-circuit", "--curve", "bn128", "--constraints", "100", "--domain",
                "1000", "--out", dir.resolve("bad").toString()}, new PrintStream(out), new PrintStream(err)));
        assertTrue(err.toString().contains("--domain must be a power of two"), err.toString());

        SnarkjsCli.assumeAvailable();
        String ours = run("groth16", "verify", vk, dir.resolve("ours-public.json"), dir.resolve("ours.json"));
        assertTrue(ours.contains("OK!"), "snarkjs verify of our proof on a padded domain: " + ours);
        run("groth16", "prove", dir.resolve("circuit.zkey"), dir.resolve("witness.wtns"),
                dir.resolve("proof.json"), dir.resolve("public.json"));
        String verify = run("groth16", "verify", vk, dir.resolve("public.json"), dir.resolve("proof.json"));
        assertTrue(verify.contains("OK!"), "snarkjs verify of its own proof with the padded key: " + verify);
    }

    private static String run(Object... args) throws Exception {
        SnarkjsCli.Result r = SnarkjsCli.run(Stream.of(args).map(Object::toString).toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.output());
        return r.output();
    }
}

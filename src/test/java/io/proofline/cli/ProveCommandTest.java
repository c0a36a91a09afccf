package io.proofline.cli;

import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;
import io.proofline.snark.format.WtnsWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Malformed input to {@code prove}: exit code 2 and one line that names the file and the problem. */
class ProveCommandTest {

    static final Path MUL3 = Path.of("src/test/resources/snarkjs/mul3/bn128");

    @TempDir
    Path tmp;

    private record Run(int rc, String err) {
    }

    private Run prove(Path zkey, Path wtns) {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"prove", zkey.toString(), wtns.toString(), tmp.resolve("p.json").toString(),
                tmp.resolve("q.json").toString()}, new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));
        return new Run(rc, err.toString().strip());
    }

    @Test
    void aWitnessOfTheWrongLengthIsRejected() throws Exception {
        Path wtns = tmp.resolve("short.wtns");
        try (Witness w = Witness.of(SnarkCurves.BN128, BigInteger.ONE, BigInteger.TWO)) {
            WtnsWriter.write(w, wtns);
        }
        Run r = prove(MUL3.resolve("circuit.zkey"), wtns);
        assertEquals(2, r.rc);
        assertEquals(1, r.err.lines().count(), r.err);
        assertTrue(r.err.contains("short.wtns") && r.err.contains("witness has 2 values"), r.err);
    }

    @Test
    void aTruncatedZkeyIsRejected() throws Exception {
        Path zkey = tmp.resolve("cut.zkey");
        byte[] full = Files.readAllBytes(MUL3.resolve("circuit.zkey"));
        Files.write(zkey, java.util.Arrays.copyOf(full, full.length / 2));
        Run r = prove(zkey, MUL3.resolve("witness.wtns"));
        assertEquals(2, r.rc);
        assertEquals(1, r.err.lines().count(), r.err);
        assertTrue(r.err.contains("cut.zkey"), r.err);
    }

    /** The point checks overlap the proof, but a bad point still fails the command before any file is written. */
    @Test
    void aKeyPointOffItsCurveFailsTheProveAndWritesNothing() throws Exception {
        byte[] bytes = Files.readAllBytes(MUL3.resolve("circuit.zkey"));
        java.nio.ByteBuffer file = java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int at = 12; // magic, version, section count; then (id u32, size u64, body) per section
        while (file.getInt(at) != 8) {
            at += 12 + (int) file.getLong(at + 4);
        }
        bytes[at + 12 + 64 + 32] ^= 1; // C[1].y's low bit: still reduced, off the curve
        Path zkey = tmp.resolve("bad-point.zkey");
        Files.write(zkey, bytes);

        Run r = prove(zkey, MUL3.resolve("witness.wtns"));

        assertEquals(2, r.rc, r.err);
        // After the backend's line (auto): the key's problem, which the proof did not wait for.
        assertEquals("prove: bad-point.zkey: section 8 (C): point 1 is not on the curve of bn254.G1",
                r.err.lines().toList().getLast(), r.err);
        assertTrue(Files.notExists(tmp.resolve("p.json")) && Files.notExists(tmp.resolve("q.json")));
    }

    @Test
    void aMissingFileIsNamed() {
        Run r = prove(tmp.resolve("nope.zkey"), MUL3.resolve("witness.wtns"));
        assertEquals(2, r.rc);
        assertTrue(r.err.contains("nope.zkey: no such file"), r.err);
    }

    @Test
    void aWitnessThatViolatesTheR1csIsRejected() throws Exception {
        Path wtns = tmp.resolve("bad.wtns");
        BigInteger[] values;
        try (Witness good = io.proofline.snark.format.WtnsReader.read(MUL3.resolve("witness.wtns"))) {
            values = new BigInteger[good.size()];
            for (int i = 0; i < values.length; i++) {
                values[i] = good.value(i);
            }
        }
        values[values.length - 1] = values[values.length - 1].add(BigInteger.ONE);
        try (Witness bad = Witness.of(SnarkCurves.BN128, values)) {
            WtnsWriter.write(bad, wtns);
        }
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"prove", MUL3.resolve("circuit.zkey").toString(), wtns.toString(),
                tmp.resolve("p.json").toString(), tmp.resolve("q.json").toString(), "--r1cs",
                MUL3.resolve("circuit.r1cs").toString()}, new PrintStream(new ByteArrayOutputStream()),
                new PrintStream(err));
        assertEquals(2, rc);
        assertTrue(err.toString().contains("bad.wtns: witness does not satisfy circuit.r1cs: constraint"), err.toString());
    }

    @Test
    void timingsPrintTheSplitOfTheRunOnOneLineAfterTheBackendChoice() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int rc = Cli.run(new String[] {"prove", MUL3.resolve("circuit.zkey").toString(),
                MUL3.resolve("witness.wtns").toString(), tmp.resolve("p.json").toString(),
                tmp.resolve("q.json").toString(), "--timings", "--backend", "cpu"},
                new PrintStream(new ByteArrayOutputStream()), new PrintStream(err));

        assertEquals(0, rc, err.toString());
        java.util.List<String> lines = err.toString().lines().toList();
        assertEquals(1, lines.size(), err.toString());
        assertTrue(lines.getFirst().matches("timings: (process start to CLI \\d+ ms, )?CLI to command \\d+ ms, "
                + "key read \\d+ ms, witness read \\d+ ms, backend \\d+ ms, proof \\d+ ms, key check \\d+ ms, "
                + "files written \\d+ ms, "
                + "command \\d+ ms"), lines.getFirst());
        assertTrue(Files.readString(tmp.resolve("p.json")).contains("pi_a"));
    }
}

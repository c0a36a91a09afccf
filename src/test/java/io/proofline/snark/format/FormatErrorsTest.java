package io.proofline.snark.format;

import io.proofline.algebra.field.PrimeField;
import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.lang.foreign.MemorySegment;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Every class of malformed input gives a {@link FormatException} that says what is wrong, and where. */
class FormatErrorsTest {

    private static final SnarkCurve BN = SnarkCurves.BN128;
    private static final SnarkCurve BLS = SnarkCurves.BLS12381;

    @TempDir
    Path tmp;

    private static Container zkey(SnarkCurve curve) throws Exception {
        return Container.parse(Files.readAllBytes(SnarkjsFixtures.file(curve, "circuit.zkey")));
    }

    private static Container wtns(SnarkCurve curve) throws Exception {
        return Container.parse(Files.readAllBytes(SnarkjsFixtures.file(curve, "witness.wtns")));
    }

    private static Container r1cs(SnarkCurve curve) throws Exception {
        return Container.parse(Files.readAllBytes(SnarkjsFixtures.file(curve, "circuit.r1cs")));
    }

    private static void assertZkeyError(byte[] bytes, String message) {
        assertError(() -> ZkeyReader.parse(MemorySegment.ofArray(bytes), "circuit.zkey", null).close(),
                "circuit.zkey: " + message);
    }

    private static void assertError(Executable read, String message) {
        FormatException e = assertThrows(FormatException.class, read);
        assertEquals(message, e.getMessage());
    }

    /** Byte offset in the header section of nVars (after n8q, q, n8r, r). */
    private static int nVarsOffset(SnarkCurve curve) {
        return 4 + curve.fq().bytes() + 4 + curve.fr().bytes();
    }

    @Test
    void badMagicAndVersion() throws Exception {
        byte[] b = zkey(BN).bytes();
        b[0] = 'Z';
        assertZkeyError(b, "not a .zkey file (magic 'Zkey', expected 'zkey')");
        Container c = zkey(BN);
        c.version = 2;
        assertZkeyError(c.bytes(), "unsupported .zkey version 2 (expected 1)");
        assertZkeyError(new byte[5], "file too short for a zkey header (5 bytes)");
    }

    @Test
    void unknownPrime() throws Exception {
        Container c = zkey(BN);
        c.body(2)[4] ^= 2; // q's lowest byte
        BigInteger q = BN.fq().modulus().xor(BigInteger.TWO);
        assertZkeyError(c.bytes(), "section 2 (header): unknown primes q = " + q + ", r = " + BN.fr().modulus()
                + " (supported: bn128, bls12381)");
    }

    @Test
    void missingAndDuplicatedSections() throws Exception {
        Container c = zkey(BN);
        c.remove(5);
        assertZkeyError(c.bytes(), "section 5 (A) is missing");
        Container d = zkey(BN);
        d.sections.add(new Container.Section(3, d.body(3).clone()));
        assertZkeyError(d.bytes(), "section 3 appears twice");
    }

    @Test
    void sectionsInAnyOrderAreFound() throws Exception {
        Container c = zkey(BLS);
        java.util.Collections.reverse(c.sections);
        try (ProvingKey key = ZkeyReader.parse(MemorySegment.ofArray(c.bytes()), "reversed.zkey", null)) {
            assertEquals(6, key.nVars());
        }
    }

    @Test
    void sectionSizeThatDisagreesWithTheHeader() throws Exception {
        Container c = zkey(BN);
        Container.putU32(c.body(2), nVarsOffset(BN), 7); // nVars 6 -> 7
        assertZkeyError(c.bytes(), "section 5 (A): size 384 bytes disagrees with the header: expected 448 "
                + "(7 = nVars G1 points of 64 bytes)");
        Container h = zkey(BLS);
        h.replace(9, java.util.Arrays.copyOf(h.body(9), h.body(9).length - 1));
        assertZkeyError(h.bytes(), "section 9 (H): size 767 bytes disagrees with the header: expected 768 "
                + "(8 = domainSize G1 points of 96 bytes)");
    }

    @Test
    void countsThatDoNotFitTheFile() throws Exception {
        Container c = zkey(BN);
        Container.putU32(c.body(4), 0, 0x7fff_ffffL);
        assertZkeyError(c.bytes(), "section 4 (coefficients): 2147483647 coefficient records of 44 bytes do not fit "
                + "the " + (c.body(4).length - 4) + " bytes left");
        Container u = zkey(BN);
        Container.putU32(u.body(4), 0, 0xffff_ffffL);
        assertZkeyError(u.bytes(), "section 4 (coefficients): coefficient count 4294967295 is larger than supported "
                + "(2^31 − 1)");
        // A forged section length (the u64 after section 1's id).
        byte[] b = zkey(BN).bytes();
        b[16] = (byte) 0xff;
        b[19] = (byte) 0x7f;
        assertZkeyError(b, "section 1 claims 2130706687 bytes but only " + (b.length - 24) + " remain");
        // A forged section count.
        byte[] n = zkey(BN).bytes();
        n[8] = (byte) 0xff;
        n[9] = (byte) 0xff;
        n[10] = (byte) 0xff;
        assertZkeyError(n, "header claims 16777215 sections but the file has room for at most "
                + (n.length - 12) / 12);
        byte[] t = java.util.Arrays.copyOf(zkey(BN).bytes(), 3000);
        assertZkeyError(t, "section 7 claims 768 bytes but only " + (3000 - zkey(BN).offsetOf(7)) + " remain");
    }

    @Test
    void fieldElementsNotReduced() throws Exception {
        Container c = zkey(BN);
        Container.putLe(c.body(4), 4 + 12, BN.fr().modulus(), 32); // first coefficient's value = r
        assertZkeyError(c.bytes(), "section 4 (coefficients): coefficient 0: value is not reduced (≥ r)");
        Container p = zkey(BLS);
        Container.putLe(p.body(5), 96 + 48, BLS.fq().modulus().add(BigInteger.ONE), 48); // A[1].y = q + 1
        assertZkeyError(p.bytes(), "section 5 (A): point 1 y coordinate is not reduced (≥ q)");
        Container h = zkey(BN);
        Container.putLe(h.body(2), nVarsOffset(BN) + 12 + 64 + 64, BN.fq().modulus(), 32); // [β]₂ x.c0 = q
        assertZkeyError(h.bytes(), "section 2 (header): [β]₂ x.c0 coordinate is not reduced (≥ q)");
    }

    @Test
    void badCoefficientRecords() throws Exception {
        Container c = zkey(BN);
        Container.putU32(c.body(4), 4, 2);
        assertZkeyError(c.bytes(), "section 4 (coefficients): coefficient 0: matrix 2 is neither A (0) nor B (1)");
        Container s = zkey(BN);
        Container.putU32(s.body(4), 4 + 8, 6);
        assertZkeyError(s.bytes(), "section 4 (coefficients): coefficient 0: signal 6 is not below nVars 6");
        Container r = zkey(BN);
        Container.putU32(r.body(4), 4 + 4, 8);
        assertZkeyError(r.bytes(), "section 4 (coefficients): coefficient 0: row 8 is outside the domain of 8");
    }

    @Test
    void pointsNotOnTheCurve() throws Exception {
        Container c = zkey(BN);
        c.body(8)[64 + 32] ^= 1; // C[1].y low bit: still reduced, off the curve
        assertZkeyError(c.bytes(), "section 8 (C): point 1 is not on the curve of bn254.G1");
        Container g2 = zkey(BLS);
        g2.body(7)[192 * 2 + 100] ^= 4;
        assertZkeyError(g2.bytes(), "section 7 (B2): point 2 is not on the curve of bls12381.G2");
        Container a = zkey(BN);
        a.body(2)[nVarsOffset(BN) + 12 + 40] ^= 1; // [α]₁.y
        assertZkeyError(a.bytes(), "section 2 (header): [α]₁ is not on the curve of bn254.G1");
    }

    @Test
    void pointOnTheCurveButOutsideTheSubgroup() throws Exception {
        // BLS12-381 G1 has cofactor h ≈ 2^126: a point (x, √(x³ + 4)) is almost surely outside the subgroup.
        PrimeField fq = BLS.fq();
        BigInteger q = fq.modulus();
        BigInteger x = BigInteger.ONE;
        BigInteger y;
        while (true) {
            BigInteger rhs = x.pow(3).add(BigInteger.valueOf(4)).mod(q);
            y = rhs.modPow(q.add(BigInteger.ONE).shiftRight(2), q); // q ≡ 3 (mod 4)
            if (y.multiply(y).mod(q).equals(rhs)) {
                break;
            }
            x = x.add(BigInteger.ONE);
        }
        Container c = zkey(BLS);
        // Montgomery form: x·R mod q with R = 2^384.
        BigInteger r = BigInteger.ONE.shiftLeft(384);
        Container.putLe(c.body(6), 3 * 96, x.multiply(r).mod(q), 48);
        Container.putLe(c.body(6), 3 * 96 + 48, y.multiply(r).mod(q), 48);
        assertZkeyError(c.bytes(), "section 6 (B1): point 3 is on the curve but not in the prime-order subgroup of "
                + "bls12381.G1");
        // With PointCheck.CURVE the large sections are only checked against the curve equation.
        try (ProvingKey key = ZkeyReader.parse(MemorySegment.ofArray(c.bytes()), "k.zkey", null, PointCheck.CURVE)) {
            assertEquals(6, key.nVars());
        }
    }

    @Test
    void headerShapeErrors() throws Exception {
        Container c = zkey(BN);
        Container.putU32(c.body(1), 0, 2);
        assertZkeyError(c.bytes(), "section 1 (protocol): protocol 2 is not Groth16 (1)");
        Container p = zkey(BN);
        Container.putU32(p.body(2), nVarsOffset(BN) + 4, 6); // nPublic = nVars
        assertZkeyError(p.bytes(), "section 2 (header): nPublic 6 does not fit nVars 6 (needs nPublic + 1 ≤ nVars)");
        Container d = zkey(BN);
        Container.putU32(d.body(2), nVarsOffset(BN) + 8, 12);
        assertZkeyError(d.bytes(), "section 2 (header): domainSize 12 is not a power of two up to 2^28");
    }

    @Test
    void witnessErrors() throws Exception {
        Container v = wtns(BN);
        Container.putLe(v.body(2), 32, BN.fr().modulus(), 32);
        assertError(() -> WtnsReader.view(MemorySegment.ofArray(v.bytes()), "w.wtns"),
                "w.wtns: section 2 (values): value 1 is not reduced (≥ r)");
        Container n = wtns(BN);
        Container.putU32(n.body(1), 36, 7);
        assertError(() -> WtnsReader.view(MemorySegment.ofArray(n.bytes()), "w.wtns"),
                "w.wtns: section 2 (values): size 192 bytes disagrees with the header: expected 224 "
                        + "(7 values of 32 bytes)");
        Container p = wtns(BN);
        p.body(1)[4] ^= 4;
        assertError(() -> WtnsReader.view(MemorySegment.ofArray(p.bytes()), "w.wtns"),
                "w.wtns: section 1 (header): unknown prime " + BN.fr().modulus().xor(BigInteger.valueOf(4))
                        + " (supported: the scalar fields of bn128 and bls12381)");
        Container m = wtns(BN);
        m.version = 1;
        assertError(() -> WtnsReader.view(MemorySegment.ofArray(m.bytes()), "w.wtns"),
                "w.wtns: unsupported .wtns version 1 (expected 2)");
    }

    @Test
    void witnessLengthDifferentFromTheKeysVariableCount() throws Exception {
        Path file = tmp.resolve("short.wtns");
        try (Witness w = Witness.of(BN, BigInteger.ONE, BigInteger.TWO)) {
            WtnsWriter.write(w, file);
        }
        try (ProvingKey key = ZkeyReader.read(SnarkjsFixtures.file(BN, "circuit.zkey"))) {
            assertError(() -> WtnsReader.read(file, key), "short.wtns: witness has 2 values but the key has 6 variables");
        }
        try (ProvingKey key = ZkeyReader.read(SnarkjsFixtures.file(BLS, "circuit.zkey"))) {
            assertError(() -> WtnsReader.read(SnarkjsFixtures.file(BN, "witness.wtns"), key),
                    "witness.wtns: witness is over bn128 but the key is over bls12381");
        }
    }

    @Test
    void r1csErrors() throws Exception {
        Container w = r1cs(BN);
        // First constraint's first A term: u32 nTerms at 0, then u32 wire at 4.
        Container.putU32(w.body(2), 4, 99);
        assertError(() -> R1csReader.parse(MemorySegment.ofArray(w.bytes()), "c.r1cs"),
                "c.r1cs: section 2 (constraints): constraint 0: wire 99 is not below nWires 6");
        Container t = r1cs(BN);
        Container.putU32(t.body(2), 0, 1_000_000);
        assertError(() -> R1csReader.parse(MemorySegment.ofArray(t.bytes()), "c.r1cs"),
                "c.r1cs: section 2 (constraints): constraint 0: 1000000 terms in one linear combination, more than "
                        + "the 6 wires");
        Container v = r1cs(BLS);
        Container.putLe(v.body(2), 8, BLS.fr().modulus(), 32);
        assertError(() -> R1csReader.parse(MemorySegment.ofArray(v.bytes()), "c.r1cs"),
                "c.r1cs: section 2 (constraints): constraint 0: coefficient of wire "
                        + Container.getU32(v.body(2), 4) + " is not reduced (≥ r)");
    }
}

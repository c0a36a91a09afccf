package io.proofline.algebra.pairing;

import io.proofline.algebra.EthPrecompileVectors;
import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bls12381.Bls12381Pairing;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.bn254.Bn254Pairing;
import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.curve.InvalidPointException;
import io.proofline.algebra.curve.InvalidPointException.Reason;
import io.proofline.algebra.field.PrimeField;
import io.proofline.algebra.field.QuadraticField;

import java.math.BigInteger;
import java.util.HexFormat;
import java.util.List;

/** Per-curve test data: generators, test curves, and the EIP-196/EIP-2537 pairing-input decoding for the vectors. */
enum PairingFixtures {
    BN254(Bn254Pairing.CURVE, 3,
            new String[]{"1", "2"},
            new String[]{
                    "10857046999023057135944570762232829481370756359578518086990519993285655852781",
                    "11559732032986387107991004021392285783925812861821192530917403151452391805634",
                    "8495653923123431417604973247489272438418190587263600148770280649306958101930",
                    "4082367875863433681332203403145435568316851327593401208105741076214120093531"}),
    BLS12_381(Bls12381Pairing.CURVE, 4,
            new String[]{
                    "0x17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb",
                    "0x08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1"},
            new String[]{
                    "0x024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8",
                    "0x13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e",
                    "0x0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801",
                    "0x0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"});

    final PairingCurve curve;
    final long b;
    final long[] g1;
    final long[] g2;

    PairingFixtures(PairingCurve curve, long b, String[] g1, String[] g2) {
        this.curve = curve;
        this.b = b;
        this.g1 = elements(curve.fq(), g1);
        this.g2 = elements(curve.fq(), g2);
    }

    private static long[] elements(PrimeField fp, String[] values) {
        int n = fp.limbs();
        long[] r = new long[values.length * n];
        for (int i = 0; i < values.length; i++) {
            String v = values[i];
            BigInteger x = v.startsWith("0x") ? new BigInteger(v.substring(2), 16) : new BigInteger(v);
            fp.fromBigInteger(x, r, i * n);
        }
        return r;
    }

    AffineTestCurve g1Curve() {
        return new AffineTestCurve(curve.fq(), curve.fq().fromLong(b));
    }

    AffineTestCurve g2Curve() {
        return new AffineTestCurve(new QuadraticField(curve.fq()), curve.twistB());
    }

    /** The vector file's name under eth-precompiles. */
    String vectorFile() {
        return this == BN254 ? "bn256Pairing.json" : "blsPairing.json";
    }

    /** Bytes of one (G1, G2) pair in the precompile encoding. */
    int pairBytes() {
        return this == BN254 ? 192 : 384;
    }

    /**
     * Decodes the k pairs of a precompile input into G1s and G2s (flat, Montgomery). BN254 (EIP-197): 32-byte words,
     * G2 as x.c1 x.c0 y.c1 y.c0. BLS12-381 (EIP-2537): 64-byte words (16 zero bytes then 48), G2 as x.c0 x.c1 y.c0 y.c1.
     * A stand-in until the curves package has decoders; it checks lengths and reducedness only.
     */
    long[][] decode(byte[] input) {
        PrimeField fp = curve.fq();
        int n = fp.limbs();
        if (input.length % pairBytes() != 0) {
            throw new IllegalArgumentException("invalid input length " + input.length);
        }
        int k = input.length / pairBytes();
        int word = this == BN254 ? 32 : 64;
        int pad = word - fp.bytes();
        long[] g1s = new long[k * 2 * n], g2s = new long[k * 4 * n];
        int[] g2Order = this == BN254 ? new int[]{1, 0, 3, 2} : new int[]{0, 1, 2, 3};
        for (int i = 0; i < k; i++) {
            int base = i * pairBytes();
            for (int c = 0; c < 2; c++) {
                fp.fromBytes(input, base + c * word + pad, true, false, g1s, (2 * i + c) * n);
            }
            for (int c = 0; c < 4; c++) {
                fp.fromBytes(input, base + (2 + c) * word + pad, true, false, g2s, (4 * i + g2Order[c]) * n);
            }
        }
        return new long[][]{g1s, g2s};
    }

    /**
     * {@link #decode} plus every check a precompile makes, as EIP-2537 words them: length (non-empty, whole pairs),
     * zero padding, reduced coordinates, then the curves package's on-curve and subgroup checks for G1 and G2.
     * Interim: replace with the curves package's EIP-196/2537 decoders once they exist.
     */
    long[][] decodeValidated(byte[] input) {
        if (input.length == 0 && this == BLS12_381 || input.length % pairBytes() != 0) {
            throw new InvalidPointException(Reason.BAD_LENGTH, this + ": invalid input length " + input.length);
        }
        int word = this == BN254 ? 32 : 64, pad = word - curve.fq().bytes();
        for (int w = 0; w < input.length / word; w++) {
            for (int i = 0; i < pad; i++) {
                if (input[w * word + i] != 0) {
                    throw new InvalidPointException(Reason.NOT_REDUCED, this + ": word " + w + " has nonzero top bytes");
                }
            }
        }
        long[][] points;
        try {
            points = decode(input);
        } catch (ArithmeticException ex) {
            throw new InvalidPointException(Reason.NOT_REDUCED, this + ": " + ex.getMessage());
        }
        CurveOps g1 = groups()[0].newOps(), g2 = groups()[1].newOps();
        int k = input.length / pairBytes(), n = curve.fq().limbs();
        for (int i = 0; i < k; i++) {
            if (!g1.isInfinityAffine(points[0], i * 2 * n)) {
                g1.requireValid(points[0], i * 2 * n, true, "pair " + i + " G1");
            }
            if (!g2.isInfinityAffine(points[1], i * 4 * n)) {
                g2.requireValid(points[1], i * 4 * n, true, "pair " + i + " G2");
            }
        }
        return points;
    }

    private CurveGroup[] groups() {
        return this == BN254 ? new CurveGroup[]{Bn254Curves.G1, Bn254Curves.G2}
                : new CurveGroup[]{Bls12381Curves.G1, Bls12381Curves.G2};
    }

    record Vector(String name, byte[] input, String expected, String expectedError) {
    }

    static List<Vector> readVectors(String file) {
        return EthPrecompileVectors.load(file).stream()
                .map(v -> new Vector((String) v.get("Name"), HexFormat.of().parseHex((String) v.get("Input")),
                        (String) v.get("Expected"), (String) v.get("ExpectedError")))
                .toList();
    }
}

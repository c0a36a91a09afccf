package io.proofline.algebra.curve;

import io.proofline.algebra.EthPrecompileVectors;
import io.proofline.algebra.bls12381.Bls12381Curves;
import io.proofline.algebra.bn254.Bn254Curves;
import io.proofline.algebra.field.PrimeField;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * go-ethereum's precompile vectors ({@link EthPrecompileVectors}): the EIP-196 and EIP-2537 decoders, group
 * addition, scalar multiplication and the MSM, plus every failure vector rejected for the specific reason.
 */
class EthPrecompileVectorsTest {

    private static final HexFormat HEX = HexFormat.of();

    // ---- the precompiles, written on top of the public API --------------------------------------------------------

    /** EVM calldata semantics for the BN254 precompiles: short input is zero-padded, long input truncated. */
    private static byte[] evmPad(byte[] in, int size) {
        return Arrays.copyOf(in, size);
    }

    static byte[] add(CurveGroup g, EvmPoints enc, byte[] in, boolean exactLength) {
        int size = enc.pointBytes(g);
        if (exactLength) {
            enc.requireLength(g.name() + " add", in.length, 2 * size);
        } else {
            in = evmPad(in, 2 * size);
        }
        // EIP-2537 addition does not require subgroup membership, only the curve equation.
        long[] a = enc.decode(g, in, 0, false);
        long[] b = enc.decode(g, in, size, false);
        return enc.encode(g, g.newOps().addAffine(a, b));
    }

    static byte[] mul(CurveGroup g, EvmPoints enc, byte[] in, boolean exactLength, boolean subgroup) {
        int size = enc.pointBytes(g);
        if (exactLength) {
            enc.requireLength(g.name() + " mul", in.length, size + EvmPoints.SCALAR_BYTES);
        } else {
            in = evmPad(in, size + EvmPoints.SCALAR_BYTES);
        }
        long[] p = enc.decode(g, in, 0, subgroup);
        BigInteger k = enc.decodeScalar(in, size);
        return enc.encode(g, g.newOps().mulAffine(p, k));
    }

    static byte[] msm(CurveGroup g, EvmPoints enc, byte[] in) {
        int pair = enc.pointBytes(g) + EvmPoints.SCALAR_BYTES;
        if (in.length == 0 || in.length % pair != 0) {
            enc.requireLength(g.name() + " msm", in.length, Math.max(1, in.length / pair) * pair);
        }
        int k = in.length / pair;
        int aw = g.affineWidth();
        long[] bases = new long[k * aw];
        long[] scalars = new long[4 * k];
        for (int i = 0; i < k; i++) {
            System.arraycopy(enc.decode(g, in, i * pair, true), 0, bases, i * aw, aw);
            BigInteger s = enc.decodeScalar(in, i * pair + enc.pointBytes(g));   // may exceed r: not reduced on purpose
            System.arraycopy(PrimeField.toLimbs(s, 4), 0, scalars, 4 * i, 4);
        }
        return enc.encode(g, Msm.compute(g, bases, scalars));
    }

    // ---- vectors -------------------------------------------------------------------------------------------------

    private interface Op {
        byte[] apply(byte[] input);
    }

    private static Stream<DynamicTest> vectors(String file, Op op) {
        return EthPrecompileVectors.load(file).stream().map(v -> DynamicTest.dynamicTest(file + " " + v.get("Name"), () -> {
            byte[] input = HEX.parseHex((String) v.get("Input"));
            assertEquals((String) v.get("Expected"), HEX.formatHex(op.apply(input)), (String) v.get("Name"));
        }));
    }

    @TestFactory
    Stream<DynamicTest> bn256Add() {
        return vectors("bn256Add.json", in -> add(Bn254Curves.G1, EvmPoints.EIP_196, in, false));
    }

    @TestFactory
    Stream<DynamicTest> bn256ScalarMul() {
        return vectors("bn256ScalarMul.json", in -> mul(Bn254Curves.G1, EvmPoints.EIP_196, in, false, true));
    }

    @TestFactory
    Stream<DynamicTest> blsG1Add() {
        return vectors("blsG1Add.json", in -> add(Bls12381Curves.G1, EvmPoints.EIP_2537, in, true));
    }

    @TestFactory
    Stream<DynamicTest> blsG2Add() {
        return vectors("blsG2Add.json", in -> add(Bls12381Curves.G2, EvmPoints.EIP_2537, in, true));
    }

    @TestFactory
    Stream<DynamicTest> blsG1Mul() {
        return vectors("blsG1Mul.json", in -> mul(Bls12381Curves.G1, EvmPoints.EIP_2537, in, true, true));
    }

    @TestFactory
    Stream<DynamicTest> blsG2Mul() {
        return vectors("blsG2Mul.json", in -> mul(Bls12381Curves.G2, EvmPoints.EIP_2537, in, true, true));
    }

    @TestFactory
    Stream<DynamicTest> blsG1MultiExp() {
        return vectors("blsG1MultiExp.json", in -> msm(Bls12381Curves.G1, EvmPoints.EIP_2537, in));
    }

    @TestFactory
    Stream<DynamicTest> blsG2MultiExp() {
        return vectors("blsG2MultiExp.json", in -> msm(Bls12381Curves.G2, EvmPoints.EIP_2537, in));
    }

    // ---- failures ------------------------------------------------------------------------------------------------

    private static Stream<DynamicTest> failures(String file, CurveGroup g, Op op) {
        return EthPrecompileVectors.load(file).stream().map(v -> DynamicTest.dynamicTest(file + " " + v.get("Name"), () -> {
            byte[] input = HEX.parseHex((String) v.get("Input"));
            String expectedError = (String) v.get("ExpectedError");
            InvalidPointException e = assertThrows(InvalidPointException.class, () -> op.apply(input), expectedError);
            String message = e.getMessage();
            if (expectedError.startsWith("invalid input length")) {
                assertEquals(InvalidPointException.Reason.BAD_LENGTH, e.reason(), message);
                assertTrue(message.contains("invalid input length " + input.length), message);
            } else if (expectedError.contains("top bytes")) {
                assertEquals(InvalidPointException.Reason.NOT_REDUCED, e.reason(), message);
                assertTrue(message.contains("non-zero top bytes"), message);
            } else if (expectedError.contains("fp.Element encoding")) {
                assertEquals(InvalidPointException.Reason.NOT_REDUCED, e.reason(), message);
                assertTrue(message.contains("not reduced"), message);
            } else if (expectedError.contains("not on curve")) {
                assertEquals(InvalidPointException.Reason.NOT_ON_CURVE, e.reason(), message);
                assertTrue(message.contains("not on the curve " + g.name()), message);
            } else if (expectedError.contains("subgroup")) {
                assertEquals(InvalidPointException.Reason.NOT_IN_SUBGROUP, e.reason(), message);
                assertTrue(message.contains("not in the prime-order subgroup of " + g.name()), message);
            } else {
                throw new AssertionError("unclassified expected error: " + expectedError);
            }
        }));
    }

    @TestFactory
    Stream<DynamicTest> failBlsG1Add() {
        return failures("fail-blsG1Add.json", Bls12381Curves.G1, in -> add(Bls12381Curves.G1, EvmPoints.EIP_2537, in, true));
    }

    @TestFactory
    Stream<DynamicTest> failBlsG2Add() {
        return failures("fail-blsG2Add.json", Bls12381Curves.G2, in -> add(Bls12381Curves.G2, EvmPoints.EIP_2537, in, true));
    }

    @TestFactory
    Stream<DynamicTest> failBlsG1Mul() {
        return failures("fail-blsG1Mul.json", Bls12381Curves.G1, in -> mul(Bls12381Curves.G1, EvmPoints.EIP_2537, in, true, true));
    }

    @TestFactory
    Stream<DynamicTest> failBlsG2Mul() {
        return failures("fail-blsG2Mul.json", Bls12381Curves.G2, in -> mul(Bls12381Curves.G2, EvmPoints.EIP_2537, in, true, true));
    }
}

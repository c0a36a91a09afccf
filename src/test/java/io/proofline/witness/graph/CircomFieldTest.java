package io.proofline.witness.graph;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import io.proofline.algebra.bls12381.Bls12381;
import io.proofline.algebra.bn254.Bn254;
import io.proofline.algebra.field.PrimeField;
import io.proofline.witness.internal.CircomRuntimeImports;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link CircomField} against the field code in circom's own wasm ({@code Fr_add}, ... called in the module, by
 * name), on both curves: every operator and conversion, on edge values (0, 1, p − 1, (p ± 1)/2, shift amounts around
 * the bit length, short and long, normal and Montgomery forms) and random ones.
 */
class CircomFieldTest {

    private static final int RANDOM_PAIRS = 60;
    /** Scratch elements high in the module's memory, above circom's stack. */
    private static final int[] AT = {-400, -320, -240};

    @ParameterizedTest
    @ValueSource(strings = {"bn128", "bls12381"})
    void everyOperatorAndConversionIsTheWasms(String curve) throws Exception {
        PrimeField field = curve.equals("bn128") ? Bn254.FR : Bls12381.FR;
        Wasm wasm = new Wasm(Path.of("src/test/resources/fixtures/" + curve + "/range_compare/circuit.wasm"));
        CircomField circom = new CircomField(field);
        BigInteger p = field.modulus();
        List<BigInteger> values = operands(p, new Random(34));
        Random random = new Random(3434);
        int checked = 0;
        for (Op op : Op.values()) {
            for (int i = 0; i < values.size(); i++) {
                BigInteger a = values.get(i);
                BigInteger b = values.get((i * 7 + op.ordinal()) % values.size());
                if ((op == Op.IDIV || op == Op.MOD) && b.signum() == 0) {
                    continue; // refused by CircomField: the graph leaves it to the wasm
                }
                long[] v = new long[3 * field.limbs()];
                field.fromBigInteger(a, v, 0);
                field.fromBigInteger(b, v, field.limbs());
                String what = op + "(" + a + ", " + b + ")";
                if (op.isConversion()) {
                    int expected = wasm.convert(op, a, b, random);
                    assertThat(circom.convert(op, v, 0, field.limbs())).as(what).isEqualTo(expected);
                } else {
                    BigInteger expected = wasm.operate(op, a, b, random);
                    circom.apply(op, v, 0, field.limbs(), 2 * field.limbs());
                    assertThat(field.toBigInteger(v, 2 * field.limbs())).as(what).isEqualTo(expected);
                }
                checked++;
            }
        }
        assertThat(checked).isGreaterThan(Op.values().length * RANDOM_PAIRS);
    }

    private static List<BigInteger> operands(BigInteger p, Random random) {
        BigInteger half = p.shiftRight(1);
        List<BigInteger> values = new ArrayList<>();
        for (long small : new long[] {0, 1, 2, 3, 7, 31, 32, 63, 64, 65, 128, 253, 254, 255, 256, 0x7fff_ffffL,
                0x8000_0000L, 0xffff_ffffL, 1L << 40}) {
            values.add(BigInteger.valueOf(small));
            values.add(p.subtract(BigInteger.valueOf(small)).mod(p));
        }
        values.add(half);
        values.add(half.add(BigInteger.ONE));
        values.add(half.subtract(BigInteger.ONE));
        values.add(BigInteger.ONE.shiftLeft(p.bitLength() - 1));
        for (int i = 0; i < RANDOM_PAIRS; i++) {
            values.add(switch (i % 3) {
                case 0 -> new BigInteger(p.bitLength() + 8, random).mod(p);
                case 1 -> new BigInteger(1 + random.nextInt(64), random);
                default -> p.subtract(new BigInteger(1 + random.nextInt(64), random));
            });
        }
        return values;
    }

    /** An instance of a circuit's wasm, its field functions called by name on elements written in its memory. */
    private static final class Wasm {

        private final WasmModule module;
        private final Instance instance;
        private final Memory memory;
        private final BigInteger p;
        private final int[] at;

        Wasm(Path wasm) throws Exception {
            module = Parser.parse(Files.readAllBytes(wasm));
            CircomRuntimeImports runtime = new CircomRuntimeImports(line -> { }, 1 << 20, 1L << 30);
            instance = Instance.builder(module).withImportValues(runtime.importValues(module)).build();
            memory = instance.memory();
            int top = memory.pages() * Memory.PAGE_SIZE;
            at = new int[] {top + AT[0], top + AT[1], top + AT[2]};
            instance.export("getRawPrime").apply();
            byte[] prime = memory.readBytes((int) instance.export("getSharedRWMemoryStart").apply()[0], 32);
            p = new BigInteger(1, reverse(prime));
        }

        BigInteger operate(Op op, BigInteger a, BigInteger b, Random random) {
            write(at[1], a, random);
            write(at[2], b, random);
            call(op.wasmName(), op.arity() == 1 ? new long[] {at[0], at[1]} : new long[] {at[0], at[1], at[2]});
            call("Fr_toLongNormal", new long[] {at[0]});
            return new BigInteger(1, reverse(memory.readBytes(at[0] + 8, 32)));
        }

        int convert(Op op, BigInteger a, BigInteger b, Random random) {
            write(at[1], a, random);
            write(at[2], b, random);
            return (int) call(op.wasmName(), op.arity() == 1 ? new long[] {at[1]} : new long[] {at[1], at[2]})[0];
        }

        /** Writes x in one of circom's forms, chosen at random among those that can hold it. */
        private void write(int address, BigInteger x, Random random) {
            BigInteger signed = x.compareTo(p.shiftRight(1)) > 0 ? x.subtract(p) : x;
            boolean fitsShort = signed.bitLength() < 32;
            int form = random.nextInt(fitsShort ? 3 : 2);
            if (form == 2) {
                memory.writeI32(address, signed.intValue());
                memory.writeI32(address + 4, 0);
                return;
            }
            BigInteger stored = form == 1 ? x.shiftLeft(256).mod(p) : x; // Montgomery: x·2^256 mod p
            memory.writeI32(address, 0);
            memory.writeI32(address + 4, form == 1 ? 0xC000_0000 : 0x8000_0000);
            memory.write(address + 8, reverse(toBytes(stored)), 0, 32);
        }

        private long[] call(String name, long[] args) {
            return instance.getMachine().call(index(name), args);
        }

        private int index(String name) {
            var names = module.nameSection();
            int functions = instance.functionCount();
            for (int i = 0; i < functions; i++) {
                if (name.equals(names.nameOfFunction(i))) {
                    return i;
                }
            }
            throw new IllegalArgumentException("no function " + name);
        }

        private static byte[] toBytes(BigInteger x) {
            byte[] out = new byte[32];
            byte[] raw = x.toByteArray();
            int n = Math.min(raw.length, 32);
            System.arraycopy(raw, raw.length - n, out, 32 - n, n);
            return out;
        }

        private static byte[] reverse(byte[] b) {
            byte[] r = new byte[b.length];
            for (int i = 0; i < b.length; i++) {
                r[i] = b[b.length - 1 - i];
            }
            return r;
        }
    }
}

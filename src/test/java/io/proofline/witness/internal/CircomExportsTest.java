package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.wasm.Parser;
import com.dylibso.chicory.wasm.WasmModule;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The fast path (copying the shared RW memory from linear memory) must see exactly what circom's
 * readSharedRWMemory / writeSharedRWMemory exports see; the fixtures only exercise the fast path.
 */
class CircomExportsTest {

    @Test
    void directMemoryAccessAgreesWithTheExports() throws Exception {
        WasmModule module;
        try (InputStream wasm = getClass().getResourceAsStream("/witness/arrays-bls12381/circuit.wasm")) {
            module = Parser.parse(wasm);
        }
        assertThat(CircomExports.checkSupported(module)).isTrue();
        Instance instance = Instance.builder(module)
                .withImportValues(new CircomRuntimeImports(line -> { }, 1 << 20, 1L << 30).importValues(module)).build();
        CircomExports direct = new CircomExports(instance, true);
        CircomExports viaExports = new CircomExports(instance, false);
        int n8 = 4 * direct.n32();

        direct.loadRawPrime();
        byte[] a = new byte[n8];
        byte[] b = new byte[n8];
        direct.readShared(a, 0);
        viaExports.readShared(b, 0);
        assertThat(a).isEqualTo(b);

        byte[] random = new byte[n8];
        new Random(7).nextBytes(random);
        direct.writeShared(random, 0);
        viaExports.readShared(b, 0);
        assertThat(b).isEqualTo(random);

        new Random(8).nextBytes(random);
        viaExports.writeShared(random, 0);
        direct.readShared(a, 0);
        assertThat(a).isEqualTo(random);
    }
}

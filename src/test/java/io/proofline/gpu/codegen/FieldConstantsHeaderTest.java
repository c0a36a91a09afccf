package io.proofline.gpu.codegen;

import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;

class FieldConstantsHeaderTest {

    private static final Path HEADER = Path.of("native-cuda/ff/fields.cuh");

    @Test
    void committedHeaderIsWhatTheGeneratorWrites() throws Exception {
        assertEquals(FieldConstantsHeader.render(), Files.readString(HEADER, StandardCharsets.UTF_8),
                "native-cuda/ff/fields.cuh is stale: run io.proofline.gpu.codegen.FieldConstantsHeader");
    }

    /** Recomputes every constant of the header from its modulus with BigInteger, independently of PrimeField. */
    @Test
    void everyConstantFollowsFromItsModulus() throws Exception {
        String text = Files.readString(HEADER, StandardCharsets.UTF_8);
        Matcher struct = Pattern.compile("struct (\\w+)_params \\{(.*?)\\n\\};", Pattern.DOTALL).matcher(text);
        int seen = 0;
        while (struct.find()) {
            seen++;
            String body = struct.group(2);
            int limbs = Integer.parseInt(find(body, "LIMBS = (\\d+);"));
            BigInteger p = array(body, "modulus");
            BigInteger r = BigInteger.ONE.shiftLeft(32 * limbs);
            BigInteger two32 = BigInteger.ONE.shiftLeft(32);
            String name = struct.group(1);
            assertEquals(p.bitLength(), Integer.parseInt(find(body, "BITS = (\\d+);")), name);
            assertEquals(p.modInverse(two32).negate().mod(two32),
                    new BigInteger(find(body, "M0 = 0x([0-9a-f]+)u;"), 16), name + " M0");
            assertEquals(r.mod(p), array(body, "one"), name + " one");
            assertEquals(r.multiply(r).mod(p), array(body, "r_squared"), name + " r_squared");
        }
        assertEquals(4, seen, "fields in the header");
    }

    private static String find(String body, String regex) {
        Matcher m = Pattern.compile(regex).matcher(body);
        if (!m.find()) {
            throw new AssertionError("missing " + regex);
        }
        return m.group(1);
    }

    private static BigInteger array(String body, String function) {
        String values = find(body, "uint32_t " + function + "\\(int i\\) \\{\\s*constexpr uint32_t v\\[\\d+\\] = \\{([^}]*)\\}");
        BigInteger x = BigInteger.ZERO;
        String[] words = values.split(",");
        for (int i = words.length - 1; i >= 0; i--) {
            String hex = words[i].trim().replace("0x", "").replace("u", "");
            x = x.shiftLeft(32).or(new BigInteger(hex, 16));
        }
        return x;
    }
}

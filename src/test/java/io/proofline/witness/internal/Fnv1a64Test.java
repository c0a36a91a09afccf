package io.proofline.witness.internal;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

class Fnv1a64Test {

    /** Expected values from circom's own JavaScript {@code fnvHash} (node, circom_runtime 0.1.28). */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''       | cbf29ce484222325",
            "a        | af63dc4c8601ec8c",
            "v        | af63eb4c86020609",
            "ps[1].x  | cb73cfb277333ef5",
            "main.in  | f91c7cf5efb0475d",
            "é€       | 0a897607b702f698"})
    void matchesCircomsJavaScriptHash(String name, String expectedHex) {
        long hash = Fnv1a64.hash(name);

        assertThat(String.format("%016x", hash)).isEqualTo(expectedHex);
        assertThat(Integer.toUnsignedString(Fnv1a64.high(hash), 16)).isEqualTo(Long.toString(Long.parseUnsignedLong(expectedHex.substring(0, 8), 16), 16));
        assertThat(Fnv1a64.low(hash)).isEqualTo((int) Long.parseUnsignedLong(expectedHex.substring(8), 16));
    }
}

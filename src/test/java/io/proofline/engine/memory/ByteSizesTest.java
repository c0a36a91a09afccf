package io.proofline.engine.memory;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.util.unit.DataSize;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one byte-size grammar: Spring's spellings mean what Spring means, and the binary ones the same. */
class ByteSizesTest {

    @ParameterizedTest
    @CsvSource({"1073741824, 1073741824", "512, 512", "512B, 512", "4GiB, 4294967296", "4gib, 4294967296",
            "4GB, 4294967296", "4G, 4294967296", "256MB, 268435456", "256 MiB, 268435456", "1.5GiB, 1610612736",
            "2KiB, 2048", "1TB, 1099511627776", " 64MB , 67108864"})
    void readsEverySpelling(String text, long bytes) {
        assertThat(ByteSizes.parse(text)).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"1KB", "256MB", "2GB", "1TB", "100B", "7"})
    void springsSpellingsMeanWhatSpringMeans(String text) {
        assertThat(ByteSizes.parse(text)).isEqualTo(DataSize.parse(text).toBytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "GiB", "-1GB", "4 gigabytes", "1e9", "4XB", "99999999999TB"})
    void refusesWhatIsNotASize(String text) {
        assertThatThrownBy(() -> ByteSizes.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(text.isEmpty() ? "not a byte size" : text);
    }
}

package io.proofline.web.console;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class UnitsTest {

    private final Units units = new Units();

    @Test
    void bytesUseBinaryUnitsWithThreeSignificantDigits() {
        assertThat(units.bytes(0)).isEqualTo("0 B");
        assertThat(units.bytes(1023)).isEqualTo("1023 B");
        assertThat(units.bytes(1024)).isEqualTo("1.00 KiB");
        assertThat(units.bytes(1536)).isEqualTo("1.50 KiB");
        assertThat(units.bytes(12L << 20)).isEqualTo("12.0 MiB");
        assertThat(units.bytes(668L << 30)).isEqualTo("668 GiB");
        assertThat(units.bytes((16L << 30) + (1L << 29))).isEqualTo("16.5 GiB");
        assertThat(units.bytes(-1)).isEqualTo("–");
        assertThat(units.bytes(Long.MAX_VALUE)).isEqualTo("8.00 EiB");
    }

    @Test
    void bytesJustBelowAUnitMoveUpInsteadOfPrinting1024() {
        assertThat(units.bytes((1L << 20) - 1)).isEqualTo("1.00 MiB");
        assertThat(units.bytes(1023L * 1024 + 600)).isEqualTo("1.00 MiB");
        assertThat(units.bytes(999L * 1024)).isEqualTo("999 KiB");
    }

    /** Against an independent BigDecimal computation: the printed value is within half a last digit of the truth. */
    @Test
    void randomSizesRoundTripWithinTheirPrecision() {
        long seed = new SplittableRandom().nextLong();
        SplittableRandom random = new SplittableRandom(seed);
        String[] names = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
        for (int i = 0; i < 10_000; i++) {
            long bytes = random.nextLong(1L << random.nextInt(1, 63));
            String[] printed = units.bytes(bytes).split(" ");
            int unit = java.util.Arrays.asList(names).indexOf(printed[1]);
            BigDecimal shown = new BigDecimal(printed[0]);
            BigDecimal exact = new BigDecimal(bytes).divide(BigDecimal.valueOf(1024).pow(unit), 12, RoundingMode.HALF_EVEN);
            BigDecimal halfDigit = BigDecimal.ONE.movePointLeft(Math.max(shown.scale(), 0)).divide(BigDecimal.TWO);
            assertThat(exact.subtract(shown).abs()).as("seed %d, %d B printed %s", seed, bytes, units.bytes(bytes))
                    .isLessThanOrEqualTo(halfDigit);
            assertThat(shown.precision()).as("seed %d, %d B", seed, bytes).isLessThanOrEqualTo(unit == 0 ? 4 : 3);
        }
    }

    @Test
    void durationsPickMsSecondsMinutesHours() {
        assertThat(units.duration(Duration.ZERO)).isEqualTo("0 ms");
        assertThat(units.millis(850)).isEqualTo("850 ms");
        assertThat(units.millis(1250)).isEqualTo("1.25 s");
        assertThat(units.millis(42_000)).isEqualTo("42.0 s");
        assertThat(units.millis(59_990)).isEqualTo("1 min 00 s");
        assertThat(units.millis(125_000)).isEqualTo("2 min 05 s");
        assertThat(units.duration(Duration.ofMinutes(187))).isEqualTo("3 h 07 min");
        assertThat(units.duration(null)).isEqualTo("–");
    }

    @Test
    void agesAreCoarse() {
        assertThat(units.age(Duration.ofSeconds(12))).isEqualTo("12 s");
        assertThat(units.age(Duration.ofSeconds(250))).isEqualTo("4 min");
        assertThat(units.age(Duration.ofHours(5))).isEqualTo("5 h");
        assertThat(units.age(Duration.ofDays(3))).isEqualTo("3 d");
    }

    @Test
    void percentIsClampedAndSafeOnUnknownWholes() {
        assertThat(units.percent(1, 4)).isEqualTo(25.0);
        assertThat(units.percent(5, 4)).isEqualTo(100.0);
        assertThat(units.percent(5, 0)).isEqualTo(0.0);
        assertThat(units.percent(-1, 10)).isEqualTo(0.0);
    }
}

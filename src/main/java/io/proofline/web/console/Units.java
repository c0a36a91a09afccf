package io.proofline.web.console;

import org.springframework.stereotype.Component;

import java.time.Duration;
import java.util.Locale;

/**
 * Human units for the console: binary byte sizes (KiB, MiB, GiB, TiB: 1 KiB = 1024 B, as the kernel and the
 * buffer table count) and durations (ms, s, min, h). Three significant digits are enough to compare cells at a
 * glance. Templates reach it as {@code @units}; {@code console.js} formats the live figures the same way.
 */
@Component("units")
public final class Units {

    private static final String[] BYTE_UNITS = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

    /** {@code 0 B}, {@code 512 B}, {@code 1.50 KiB}, {@code 12.0 MiB}, {@code 668 GiB}; {@code –} when unknown (negative). */
    public String bytes(long bytes) {
        if (bytes < 0) {
            return "–";
        }
        if (bytes < 1024) {
            return bytes + " B";
        }
        int unit = (63 - Long.numberOfLeadingZeros(bytes)) / 10;
        double value = bytes / Math.pow(1024, unit);
        // 1023.6 KiB would print as "1024 KiB": move it up a unit instead.
        if (value >= 999.5 && unit + 1 < BYTE_UNITS.length) {
            unit++;
            value /= 1024;
        }
        return threeDigits(value) + " " + BYTE_UNITS[unit];
    }

    /** As {@link #bytes}, with a sign where the figure may be negative ({@code −256 MiB}: the unaccounted bytes). */
    public String signedBytes(long bytes) {
        return bytes < 0 ? "\u2212" + bytes(bytes == Long.MIN_VALUE ? Long.MAX_VALUE : -bytes) : bytes(bytes);
    }

    /** {@code 0 ms}, {@code 850 ms}, {@code 1.25 s}, {@code 42.0 s}, {@code 2 min 05 s}, {@code 3 h 07 min}. */
    public String duration(Duration duration) {
        if (duration == null || duration.isNegative()) {
            return "–";
        }
        long millis = duration.toMillis();
        if (millis < 1000) {
            return millis + " ms";
        }
        if (millis < 60_000) {
            double seconds = millis / 1000.0;
            return seconds >= 59.95 ? "1 min 00 s" : threeDigits(seconds) + " s";
        }
        long seconds = millis / 1000;
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%d min %02d s", seconds / 60, seconds % 60);
        }
        return String.format(Locale.ROOT, "%d h %02d min", seconds / 3600, (seconds % 3600) / 60);
    }

    public String millis(long millis) {
        return duration(Duration.ofMillis(millis));
    }

    /** A coarse age for lists: {@code 12 s}, {@code 4 min}, {@code 2 h}, {@code 3 d}. */
    public String age(Duration age) {
        if (age == null || age.isNegative()) {
            return "–";
        }
        long s = age.toSeconds();
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min";
        }
        if (s < 86_400) {
            return s / 3600 + " h";
        }
        return s / 86_400 + " d";
    }

    /** {@code part} of {@code whole} in percent, clamped to 0..100 (0 when the whole is unknown or zero). */
    public double percent(long part, long whole) {
        if (whole <= 0 || part <= 0) {
            return 0;
        }
        return Math.min(100.0, 100.0 * part / whole);
    }

    /** 1.23, 12.3, 123 (no trailing rounding to 1000: callers move up a unit first). */
    private static String threeDigits(double value) {
        if (value < 9.995) {
            return String.format(Locale.ROOT, "%.2f", value);
        }
        if (value < 99.95) {
            return String.format(Locale.ROOT, "%.1f", value);
        }
        return String.format(Locale.ROOT, "%.0f", value);
    }
}

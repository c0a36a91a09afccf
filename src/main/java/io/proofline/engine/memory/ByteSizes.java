package io.proofline.engine.memory;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one grammar for byte sizes, wherever a user writes one (the launcher's {@code PROOFLINE_MEMORY_LIMIT}, the CLI's
 * options, every Spring size property): a count of bytes, or a number with a unit, {@code KiB}, {@code MiB},
 * {@code GiB}, {@code TiB} or Spring's {@code KB}, {@code MB}, {@code GB}, {@code TB}, which are binary multiples too
 * ({@code 1GB} = {@code 1GiB} = 2^30 bytes); {@code B}, {@code K}, {@code M}, {@code G}, {@code T} as well, in any case.
 */
public final class ByteSizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(?:([kmgt])(?:i?b)?|b)?");

    private ByteSizes() {
    }

    /** The bytes {@code text} says; {@link IllegalArgumentException} naming the grammar when it is not a size. */
    public static long parse(String text) {
        Matcher m = SIZE.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a byte size: '" + text + "' (a count of bytes, or a number with"
                    + " KiB, MiB, GiB, TiB or KB, MB, GB, TB, all binary: e.g. 1073741824, 512MiB, 2GB, 1.5GiB)");
        }
        int shift = m.group(2) == null ? 0 : switch (m.group(2).charAt(0)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 40;
        };
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(1L << shift));
        if (bytes.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw new IllegalArgumentException("byte size too large: '" + text + "'");
        }
        return bytes.longValue();
    }
}

package io.proofline.cli;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Byte sizes on the command line: a plain count, or a number with KiB/MiB/GiB/TiB (KB/MB/GB/TB read as binary too). */
public final class ByteSizes {

    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([kmgt]i?b?|b)?");

    private ByteSizes() {
    }

    public static long parse(String text) throws UsageException {
        Matcher m = SIZE.matcher(text.trim().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new UsageException("not a byte size: '" + text + "' (e.g. 1073741824, 512MiB, 2GiB)");
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "b" : m.group(2);
        int shift = switch (unit.charAt(0)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            case 't' -> 40;
            default -> 0;
        };
        return (long) (value * (1L << shift));
    }
}

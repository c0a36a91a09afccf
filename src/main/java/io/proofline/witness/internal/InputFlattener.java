package io.proofline.witness.internal;

import io.proofline.witness.WitnessException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a snarkjs-style input object into qualified signal names and flat value lists, as circom's
 * {@code witness_calculator.js} does ({@code qualify_input} + {@code flatArray}):
 * <ul>
 *   <li>an array of values is one signal, flattened in row-major order: {@code "m": [[1,2],[3,4]]} → m = 1,2,3,4;</li>
 *   <li>an object is a circom 2.2 bus: {@code "p": {"x": 1}} → {@code p.x};</li>
 *   <li>an array of objects is an array of buses: {@code "ps": [{"x": 1}]} → {@code ps[0].x}.</li>
 * </ul>
 * Values are integers given as JSON numbers, decimal strings or {@code 0x}/{@code 0o}/{@code 0b} strings
 * (what JavaScript's {@code BigInt()} takes), optionally negative, and booleans as 1/0 (also as
 * {@code BigInt}). They are kept as given; reduction mod p happens when the prime is known.
 * Unlike circom's JS, which insists that an array's values share one JavaScript type, numbers and strings
 * may be mixed (snarkjs accepts that too); values and objects may not.
 *
 * <p>A value may have at most {@value #MAX_DECIMAL_DIGITS} decimal or {@value #MAX_HEX_DIGITS} hex digits (and as
 * many bits in octal or binary): a field element of either curve needs at most 78 decimal digits, and
 * {@code BigInteger}'s parser is quadratic in the length, so a longer number is refused before it is read. Exponent
 * notation ({@code 1e999999999}) is held to the same bound on the digits its value would have.
 */
public final class InputFlattener {

    /** The most decimal digits of one value (without sign). */
    public static final int MAX_DECIMAL_DIGITS = 80;
    /** The most hex digits of one value (without sign and {@code 0x}). */
    public static final int MAX_HEX_DIGITS = 66;
    /** The bits of the largest value the digit bounds admit: 10^80 < 2^266. */
    private static final int MAX_BITS = 266;

    private InputFlattener() {
    }

    /** Qualified signal name → values, in the input's order (circom sets the signals in that order). */
    public static Map<String, List<BigInteger>> flatten(Map<String, ?> input) {
        Map<String, List<BigInteger>> signals = new LinkedHashMap<>();
        qualify("", input, signals);
        return signals;
    }

    private static void qualify(String prefix, Object node, Map<String, List<BigInteger>> out) {
        switch (node) {
            case Map<?, ?> bus -> {
                for (Map.Entry<?, ?> field : bus.entrySet()) {
                    String key = String.valueOf(field.getKey());
                    qualify(prefix.isEmpty() ? key : prefix + "." + key, field.getValue(), out);
                }
            }
            case Collection<?> list -> {
                List<Object> leaves = new ArrayList<>();
                flatten(list, leaves);
                long maps = leaves.stream().filter(leaf -> leaf instanceof Map).count();
                if (maps == 0) {
                    put(out, prefix, leaves.stream().map(leaf -> toInteger(prefix, leaf)).toList());
                } else if (maps == leaves.size()) {
                    qualifyList(prefix, list, out);
                } else {
                    throw invalid("input '" + prefix + "' mixes bus objects and plain values in one array");
                }
            }
            case null -> throw invalid("input '" + prefix + "' is null; give a number or a string");
            default -> put(out, prefix, List.of(toInteger(prefix, node)));
        }
    }

    private static void qualifyList(String prefix, Collection<?> list, Map<String, List<BigInteger>> out) {
        int i = 0;
        for (Object item : list) {
            String indexed = prefix + "[" + i++ + "]";
            if (item instanceof Collection<?> inner) {
                qualifyList(indexed, inner, out);
            } else {
                qualify(indexed, item, out);
            }
        }
    }

    private static void flatten(Collection<?> list, List<Object> leaves) {
        for (Object item : list) {
            if (item instanceof Collection<?> inner) {
                flatten(inner, leaves);
            } else {
                leaves.add(item);
            }
        }
    }

    private static void put(Map<String, List<BigInteger>> out, String name, List<BigInteger> values) {
        if (name.isEmpty()) {
            throw invalid("the input must be a JSON object of signal names, not a bare value or array");
        }
        out.put(name, values);
    }

    /** One value as JavaScript's {@code BigInt(value)} reads it (booleans included), but exact for large numbers. */
    public static BigInteger toInteger(String signal, Object value) {
        try {
            return switch (value) {
                case BigInteger b -> bounded(signal, b);
                case Long l -> BigInteger.valueOf(l);
                case Integer i -> BigInteger.valueOf(i);
                case Short s -> BigInteger.valueOf(s);
                case Byte b -> BigInteger.valueOf(b);
                case BigDecimal d -> exactInteger(signal, d);
                case Double d when Double.isFinite(d) -> exactInteger(signal, new BigDecimal(d));
                case Float f when Float.isFinite(f) -> exactInteger(signal, new BigDecimal(f));
                case Boolean b -> b ? BigInteger.ONE : BigInteger.ZERO;
                case CharSequence s -> parseString(signal, s.toString().strip());
                case null -> throw new NumberFormatException("null");
                default -> throw new NumberFormatException(value.getClass().getSimpleName());
            };
        } catch (ArithmeticException | NumberFormatException e) {
            throw invalid("input '" + signal + "': " + describe(value)
                    + " is not an integer (give a number, a decimal string or a \"0x\" hex string)");
        }
    }

    private static BigInteger bounded(String signal, BigInteger value) {
        if (value.bitLength() > MAX_BITS) {
            throw tooLong(signal);
        }
        return value;
    }

    /**
     * A decimal's integer value without expanding it first: {@code 1e999999999} would be a billion-digit
     * {@code BigInteger}, {@code 1e-999999999} a division by one.
     */
    private static BigInteger exactInteger(String signal, BigDecimal value) {
        BigDecimal stripped = value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
        if (stripped.scale() > 0) {
            throw new NumberFormatException("fraction");
        }
        if ((long) stripped.precision() - stripped.scale() > MAX_DECIMAL_DIGITS) {
            throw tooLong(signal);
        }
        return stripped.toBigIntegerExact();
    }

    private static BigInteger parseString(String signal, String s) {
        if (s.isEmpty()) {
            throw new NumberFormatException("empty"); // BigInt("") is 0n, but an empty value is a client bug
        }
        boolean negative = s.charAt(0) == '-';
        String digits = negative || s.charAt(0) == '+' ? s.substring(1) : s;
        int radix = 10;
        if (digits.length() > 2 && digits.charAt(0) == '0') {
            radix = switch (Character.toLowerCase(digits.charAt(1))) {
                case 'x' -> 16;
                case 'o' -> 8;
                case 'b' -> 2;
                default -> 10;
            };
            if (radix != 10) {
                digits = digits.substring(2);
            }
        }
        if (digits.isEmpty() || digits.charAt(0) == '-' || digits.charAt(0) == '+') {
            throw new NumberFormatException(s);
        }
        if (digits.length() > maxDigits(radix)) {
            throw tooLong(signal);
        }
        BigInteger magnitude = new BigInteger(digits, radix);
        return negative ? magnitude.negate() : magnitude;
    }

    /** The most digits of one value in {@code radix} (without sign and prefix). */
    public static int maxDigits(int radix) {
        return switch (radix) {
            case 16 -> MAX_HEX_DIGITS;
            case 10 -> MAX_DECIMAL_DIGITS;
            default -> MAX_BITS / Integer.numberOfTrailingZeros(radix) + 1;
        };
    }

    public static WitnessException tooLong(String signal) {
        return invalid("input '" + signal + "' has more than " + MAX_DECIMAL_DIGITS + " decimal (" + MAX_HEX_DIGITS
                + " hex) digits; a field element has at most 78");
    }

    private static String describe(Object value) {
        String text = value instanceof CharSequence ? "\"" + value + "\"" : String.valueOf(value);
        return text.length() > 80 ? text.substring(0, 77) + "..." : text;
    }

    private static WitnessException invalid(String message) {
        return new WitnessException(WitnessException.Reason.INVALID_INPUT, message);
    }
}

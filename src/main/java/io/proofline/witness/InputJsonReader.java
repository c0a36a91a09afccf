package io.proofline.witness;

import io.proofline.witness.internal.InputFlattener;
import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.StreamReadConstraints;
import tools.jackson.core.json.JsonFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigInteger;

/**
 * Reads a snarkjs {@code input.json} object token by token and hands its values on flattened, as
 * {@link InputFlattener} flattens a whole tree (row-major arrays, {@code p.x} and {@code ps[0].x} for buses), without
 * ever holding the tree: an input of millions of numbers costs the parser's buffer, not millions of nodes. Every value
 * is checked as it passes ({@link InputFlattener#MAX_DECIMAL_DIGITS} digits and the like, integer, not null), and so
 * are the nesting depth ({@link #MAX_DEPTH}) and a qualified name's length ({@link #MAX_NAME_CHARS}). An array's
 * first leaf decides whether it is an array of values (one signal) or of buses; a later leaf of the other kind is
 * refused, as the tree flattener refuses the mix.
 *
 * <p>The sink sees each signal's name before its values and learns its end; values come as the parser's current
 * token (a number, a string or a boolean), so that a sink which only copies or counts never builds a
 * {@link BigInteger} ({@link #value} does, for one that needs it).
 */
public final class InputJsonReader {

    /** The deepest nesting of arrays and bus objects below the input object (circom arrays rarely pass 4). */
    public static final int MAX_DEPTH = 32;
    /** The longest qualified signal name ({@code ps[0][1].x.y}). */
    public static final int MAX_NAME_CHARS = 4096;

    /** Where the flattened input goes. */
    public interface Sink {
        /** A signal starts: its values follow, then {@link #end}. */
        void start(String signal);

        /** One value of the current signal: {@code parser}'s current token is a scalar ({@link #value} reads it). */
        void value(String signal, JsonParser parser);

        /** The current signal ended after {@code count} values (0 for an empty array). */
        void end(String signal, long count);
    }

    /**
     * What Jackson itself refuses while an input is read, before this reader sees it: numbers and strings far past the
     * longest value ({@code 0b} and 266 binary digits), names past {@link #MAX_NAME_CHARS}, nesting past
     * {@link #MAX_DEPTH} with room for the job document around an input.
     */
    public static final StreamReadConstraints CONSTRAINTS = StreamReadConstraints.builder()
            .maxNumberLength(InputFlattener.MAX_DECIMAL_DIGITS + 20).maxStringLength(1024)
            .maxNameLength(MAX_NAME_CHARS).maxNestingDepth(MAX_DEPTH + 8).build();

    private static final JsonFactory FACTORY = JsonFactory.builder().streamReadConstraints(CONSTRAINTS).build();

    /** A parser on a staged input's text, within {@link #CONSTRAINTS}. */
    public static JsonParser parser(InputStream in) {
        return FACTORY.createParser(ObjectReadContext.empty(), in);
    }

    /** Opens a parser on the input's text (a staged file), each time a computation reads it. */
    @FunctionalInterface
    public interface ParserOpener {
        JsonParser open() throws IOException;
    }

    private final JsonParser parser;
    private final Sink sink;

    /**
     * The input in the text {@code opener} reads, streamed each time a computation needs it: never a tree, its values
     * flattened straight into the computation's memory.
     */
    public static InputSource source(ParserOpener opener) {
        return sink -> {
            try (JsonParser parser = opener.open()) {
                read(parser, sink.json());
            } catch (JacksonException e) {
                throw notJson(e);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the input", e);
            }
        };
    }

    private InputJsonReader(JsonParser parser, Sink sink) {
        this.parser = parser;
        this.sink = sink;
    }

    /**
     * Reads the object at {@code parser}'s current token (a {@code START_OBJECT}; reads the first token when there is
     * none yet) up to and including its {@code END_OBJECT}.
     *
     * @throws WitnessException ({@link WitnessException.Reason#INVALID_INPUT}) for an input that is not a circuit
     *                          input, with the signal named; Jackson's own exceptions for text that is not JSON
     */
    public static void read(JsonParser parser, Sink sink) {
        JsonToken first = parser.currentToken() != null ? parser.currentToken() : parser.nextToken();
        if (first != JsonToken.START_OBJECT) {
            throw invalid("the input must be a JSON object of signal names, e.g. {\"a\": \"3\", \"v\": [1, 2]}");
        }
        new InputJsonReader(parser, sink).object("", 1);
    }

    /**
     * The current token's value as an integer as given (not reduced), as {@link WitnessInput} reads it: a number,
     * a decimal or {@code 0x}/{@code 0o}/{@code 0b} string, a boolean.
     */
    public static BigInteger value(String signal, JsonParser parser) {
        JsonToken token = parser.currentToken();
        Object value = switch (token) {
            case VALUE_NUMBER_INT -> new BigInteger(parser.getText());
            case VALUE_NUMBER_FLOAT -> parser.getDecimalValue();
            case VALUE_STRING -> parser.getString();
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            default -> throw invalid("input '" + signal + "': " + token + " is not a value");
        };
        return InputFlattener.toInteger(signal, value);
    }

    /** The fields of a bus (or of the input itself, {@code prefix} empty), after its {@code START_OBJECT}. */
    private void object(String prefix, int depth) {
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
            String key = parser.currentName();
            String name = prefix.isEmpty() ? key : prefix + "." + key;
            checkName(name);
            JsonToken value = parser.nextToken();
            switch (value) {
                case START_OBJECT -> object(name, deeper(depth, name));
                case START_ARRAY -> array(name, deeper(depth, name));
                default -> {
                    sink.start(name);
                    leaf(name);
                    sink.end(name, 1);
                }
            }
        }
    }

    /** What the leaves of an array are, decided by its first one. */
    private enum Mode { UNDECIDED, VALUES, BUSES }

    private Mode mode;
    private long count;

    /** An array (after its {@code START_ARRAY}): one signal of values, or an array of buses. */
    private void array(String name, int depth) {
        Mode outer = mode;
        long outerCount = count;
        mode = Mode.UNDECIDED;
        count = 0;
        elements(name, name, depth);
        if (mode != Mode.BUSES) {
            if (mode == Mode.UNDECIDED) {
                sink.start(name);
            }
            sink.end(name, count);
        }
        mode = outer;
        count = outerCount;
    }

    /** The elements of one (possibly inner) array of the signal {@code name}, {@code indexed} its bus prefix. */
    private void elements(String name, String indexed, int depth) {
        int index = 0;
        for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken(), index++) {
            switch (t) {
                case START_ARRAY -> {
                    String at = indexed + "[" + index + "]"; // a bus's prefix, should buses follow
                    checkName(at);
                    elements(name, at, deeper(depth, name));
                }
                case START_OBJECT -> {
                    decide(name, Mode.BUSES);
                    String at = indexed + "[" + index + "]";
                    checkName(at);
                    object(at, deeper(depth, name));
                }
                default -> {
                    if (decide(name, Mode.VALUES)) {
                        sink.start(name);
                    }
                    leaf(name);
                    count++;
                }
            }
        }
    }

    /** Settles the current array's mode; true when this leaf settled it. */
    private boolean decide(String name, Mode leaf) {
        if (mode == Mode.UNDECIDED) {
            mode = leaf;
            return true;
        }
        if (mode != leaf) {
            throw invalid("input '" + name + "' mixes bus objects and plain values in one array");
        }
        return false;
    }

    /** A scalar: checked here, then handed to the sink. */
    private void leaf(String name) {
        JsonToken t = parser.currentToken();
        switch (t) {
            case VALUE_NUMBER_INT -> checkInteger(name, parser); // its length, without making it a string
            case VALUE_NUMBER_FLOAT -> value(name, parser); // exact, bounded, integral (InputFlattener)
            case VALUE_STRING -> checkString(name, parser.getString());
            case VALUE_TRUE, VALUE_FALSE -> {
            }
            case VALUE_NULL -> throw invalid("input '" + name + "' is null; give a number or a string");
            default -> throw invalid("input '" + name + "': unexpected " + t);
        }
        sink.value(name, parser);
    }

    private static void checkInteger(String name, JsonParser parser) {
        char[] text = parser.getTextCharacters();
        int digits = parser.getTextLength() - (text[parser.getTextOffset()] == '-' ? 1 : 0);
        if (digits > InputFlattener.MAX_DECIMAL_DIGITS) {
            throw InputFlattener.tooLong(name);
        }
    }

    /** A string value as {@link InputFlattener} reads it, checked by its characters (no number built). */
    private static void checkString(String name, String raw) {
        String s = raw.strip();
        int i = 0;
        if (!s.isEmpty() && (s.charAt(0) == '-' || s.charAt(0) == '+')) {
            i = 1;
        }
        int radix = 10;
        if (s.length() - i > 2 && s.charAt(i) == '0') {
            radix = switch (Character.toLowerCase(s.charAt(i + 1))) {
                case 'x' -> 16;
                case 'o' -> 8;
                case 'b' -> 2;
                default -> 10;
            };
            if (radix != 10) {
                i += 2;
            }
        }
        int digits = s.length() - i;
        if (digits == 0) {
            throw notInteger(name, raw);
        }
        if (digits > InputFlattener.maxDigits(radix)) {
            throw InputFlattener.tooLong(name);
        }
        for (int j = i; j < s.length(); j++) {
            if (Character.digit(s.charAt(j), radix) < 0) {
                throw notInteger(name, raw);
            }
        }
    }

    private static int deeper(int depth, String name) {
        if (depth >= MAX_DEPTH) {
            throw invalid("input '" + name + "' is nested more than " + MAX_DEPTH + " levels deep");
        }
        return depth + 1;
    }

    private static void checkName(String name) {
        if (name.length() > MAX_NAME_CHARS) {
            throw invalid("input '" + name.substring(0, 64) + "...' has a qualified name longer than "
                    + MAX_NAME_CHARS + " characters");
        }
    }

    private static WitnessException notInteger(String name, String raw) {
        String shown = raw.length() > 80 ? raw.substring(0, 77) + "..." : raw;
        return invalid("input '" + name + "': \"" + shown
                + "\" is not an integer (give a number, a decimal string or a \"0x\" hex string)");
    }

    static WitnessException invalid(String message) {
        return new WitnessException(WitnessException.Reason.INVALID_INPUT, message);
    }

    /** Jackson's failure to read the text (not JSON, or past a read constraint) as an input refusal. */
    public static WitnessException notJson(JacksonException e) {
        return new WitnessException(WitnessException.Reason.INVALID_INPUT,
                "input is not valid JSON: " + e.getOriginalMessage(), e);
    }
}

package io.proofline.cli;

import io.proofline.engine.memory.ByteSizes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** {@code --name value} options of a command, and its positional arguments (under the keys "0", "1", …). */
public final class Options {

    private Options() {
    }

    public static Map<String, String> parse(String[] args, String... known) throws UsageException {
        Set<String> names = Set.of(known);
        Map<String, String> r = new HashMap<>();
        List<String> positional = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--")) {
                if (!names.contains(a)) {
                    throw new UsageException("unknown option " + a);
                }
                if (i + 1 >= args.length) {
                    throw new UsageException("option " + a + " needs a value");
                }
                r.put(a, args[++i]);
            } else {
                positional.add(a);
            }
        }
        for (int i = 0; i < positional.size(); i++) {
            r.put(Integer.toString(i), positional.get(i));
        }
        r.put("#", Integer.toString(positional.size()));
        return r;
    }

    public static String require(Map<String, String> opts, String name) throws UsageException {
        String v = opts.get(name);
        if (v == null) {
            throw new UsageException("missing " + name);
        }
        return v;
    }

    /** The option's byte size ({@link ByteSizes}'s grammar), or {@code fallback} when the option is absent. */
    public static long bytes(Map<String, String> opts, String name, long fallback) throws UsageException {
        String v = opts.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return ByteSizes.parse(v);
        } catch (IllegalArgumentException e) {
            throw new UsageException(name + ": " + e.getMessage());
        }
    }

    public static int intValue(Map<String, String> opts, String name, int fallback) throws UsageException {
        String v = opts.get(name);
        if (v == null) {
            return fallback;
        }
        try {
            return Integer.parseInt(v);
        } catch (NumberFormatException e) {
            throw new UsageException(name + " must be an integer, got '" + v + "'");
        }
    }

    /** A comma-separated list of integers ({@code 1,2,4}); {@code fallback} when the option is absent. */
    public static List<Integer> intList(Map<String, String> opts, String name, List<Integer> fallback) throws UsageException {
        String v = opts.get(name);
        if (v == null) {
            return fallback;
        }
        List<Integer> values = new ArrayList<>();
        for (String part : v.split(",")) {
            try {
                values.add(Integer.parseInt(part.strip()));
            } catch (NumberFormatException e) {
                throw new UsageException(name + " must be a comma-separated list of integers, got '" + v + "'");
            }
        }
        return List.copyOf(values);
    }

    /** A comma-separated list of words; {@code fallback} when the option is absent. */
    public static List<String> list(Map<String, String> opts, String name, String fallback) {
        List<String> values = new ArrayList<>();
        for (String part : opts.getOrDefault(name, fallback).split(",")) {
            if (!part.isBlank()) {
                values.add(part.strip());
            }
        }
        return List.copyOf(values);
    }

    public static int positionalCount(Map<String, String> opts) {
        return Integer.parseInt(opts.get("#"));
    }
}

package io.proofline.lab.gpu;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The steps of one prove start on a device, for benchmarks and diagnostics: the host's steps (host clock, ms) and each
 * device step as a span on one clock shared by both streams (CUDA events, ms after the first device step).
 *
 * <p>Why spans and not durations: the two streams share the SMs, and a kernel queued behind a long grid of the other
 * stream waits until that grid's blocks have been dispatched. A step's span is then the time it was in flight, not
 * its cost: ΣH's sort, queued behind ΣB2's accumulation, spans most of that accumulation although it sorts in a
 * fraction of it. {@link #alone()} marks a prove start whose stream h began only after stream w had finished, so that
 * its steps ran one after the other ({@link ProveStartRecorder#aloneNext()}); there each span is the step's own device
 * time, and their sum is the device work that two streams can only overlap, not remove.
 *
 * @param hostMillis the host's steps in order (enqueue, wait, Horner), milliseconds
 * @param device     the device steps in the order each stream ran them, stream w's first
 * @param alone      whether the device steps ran one after the other on one stream
 */
public record ProveStartSteps(Map<String, Double> hostMillis, List<Step> device, boolean alone) {

    /** Nothing measured yet. */
    public static final ProveStartSteps NONE = new ProveStartSteps(Map.of(), List.of(), false);

    /**
     * One device step, or a part of one ({@code "msm B2: accumulate"}: the step before the colon).
     *
     * @param stream "w" (the witness's MSMs) or "h" (a/b/c, H, ΣB1, ΣH)
     * @param name   the step, with its part after ": " where the step marks its parts
     * @param fromMs start, ms after the first device step
     * @param toMs   end, ms after the first device step
     */
    public record Step(String stream, String name, double fromMs, double toMs) {

        public double millis() {
            return toMs - fromMs;
        }

        /** The step this is (a part) of: the name before ": ". */
        public String step() {
            int colon = name.indexOf(": ");
            return colon < 0 ? name : name.substring(0, colon);
        }
    }

    public ProveStartSteps {
        hostMillis = Collections.unmodifiableMap(new LinkedHashMap<>(hostMillis));
        device = List.copyOf(device);
    }

    /** Whether a device step (or a part of it) of this name ran, e.g. "msm B2". */
    public boolean ran(String step) {
        return device.stream().anyMatch(s -> s.step().equals(step));
    }

    /**
     * The device steps whole: each step's parts merged into one span from its first part's start to its last part's
     * end, in order.
     */
    public List<Step> steps() {
        List<Step> merged = new ArrayList<>();
        for (Step s : device) {
            Step last = merged.isEmpty() ? null : merged.getLast();
            if (last != null && last.stream().equals(s.stream()) && last.name().equals(s.step())) {
                merged.set(merged.size() - 1, new Step(s.stream(), s.step(), last.fromMs(), s.toMs()));
            } else {
                merged.add(new Step(s.stream(), s.step(), s.fromMs(), s.toMs()));
            }
        }
        return merged;
    }

    /** The sum of the device steps' spans (with {@link #alone()}: the device work of the prove start). */
    public double deviceMillis() {
        return device.stream().mapToDouble(Step::millis).sum();
    }

    /**
     * One line: the host's steps, then per stream each step as {@code from–to} (two streams) or its duration (alone),
     * its parts in parentheses.
     */
    public String summary() {
        StringBuilder line = new StringBuilder("host (ms):");
        hostMillis.forEach((k, v) -> line.append(String.format(Locale.ROOT, " %s %.2f;", k, v)));
        if (alone) {
            line.append(String.format(Locale.ROOT, " device, the steps one after the other on one stream "
                    + "(ms each, sum %.2f):", deviceMillis()));
        } else {
            line.append(" device, both streams on one clock (ms from the first device step to each step's start–end;"
                    + " a step's span includes waiting for the other stream's kernels):");
        }
        for (String stream : List.of("w", "h")) {
            if (device.stream().noneMatch(s -> s.stream().equals(stream))) {
                continue;
            }
            line.append(" stream ").append(stream).append(':');
            List<Step> parts = device.stream().filter(s -> s.stream().equals(stream)).toList();
            for (Step step : steps()) {
                if (!step.stream().equals(stream)) {
                    continue;
                }
                line.append(' ').append(step.name()).append(' ').append(span(step));
                List<Step> inner = parts.stream().filter(p -> p.step().equals(step.name()) && !p.name().equals(step.name())
                        && p.fromMs() >= step.fromMs() && p.toMs() <= step.toMs()).toList();
                if (!inner.isEmpty()) {
                    line.append(" (");
                    for (int i = 0; i < inner.size(); i++) {
                        Step p = inner.get(i);
                        line.append(i == 0 ? "" : ", ").append(p.name().substring(p.step().length() + 2)).append(' ')
                                .append(span(p));
                    }
                    line.append(')');
                }
                line.append(',');
            }
            line.setLength(line.length() - 1);
            line.append(';');
        }
        line.setLength(line.length() - 1);
        return line.toString();
    }

    private String span(Step s) {
        return alone ? String.format(Locale.ROOT, "%.2f", s.millis())
                : String.format(Locale.ROOT, "%.1f–%.1f", s.fromMs(), s.toMs());
    }
}

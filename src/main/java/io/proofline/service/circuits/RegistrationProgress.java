package io.proofline.service.circuits;

import io.proofline.snark.format.ValidationProgress;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How far the check of a REGISTERING circuit's points has come, per section of its zkey, in the instance that runs
 * it (another instance shows the circuit REGISTERING without progress).
 */
public final class RegistrationProgress implements ValidationProgress {

    /** The zkey's point sections, in the order they are checked. */
    private static final List<String> SECTIONS = List.of("A", "B1", "B2", "C", "H");

    /** Per section: points checked, points in it. */
    private final Map<String, AtomicLongArray> sections = new ConcurrentHashMap<>();

    /** One section's progress. */
    public record Section(String name, long checked, long total) {
    }

    @Override
    public void checked(String section, long checked, long total) {
        AtomicLongArray s = sections.computeIfAbsent(section, k -> new AtomicLongArray(2));
        s.set(1, total);
        s.accumulateAndGet(0, checked, Math::max); // chunks finish out of order
    }

    /** The sections known so far, in the zkey's order. */
    public List<Section> sections() {
        return SECTIONS.stream().filter(sections::containsKey)
                .map(name -> new Section(name, sections.get(name).get(0), sections.get(name).get(1))).toList();
    }
}

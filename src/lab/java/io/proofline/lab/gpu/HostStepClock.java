package io.proofline.lab.gpu;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/** Host-clock laps of a sequence of steps (each step ends synchronized with the device), in milliseconds. */
final class HostStepClock {

    private final Map<String, Double> laps = new LinkedHashMap<>();
    private long last = System.nanoTime();

    void lap(String step) {
        long now = System.nanoTime();
        laps.merge(step, (now - last) / 1e6, Double::sum);
        last = now;
    }

    Map<String, Double> laps() {
        return Collections.unmodifiableMap(laps);
    }
}

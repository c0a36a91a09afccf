package io.proofline.lab.gpu;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProveStartStepsTest {

    private static ProveStartSteps.Step w(String name, double from, double to) {
        return new ProveStartSteps.Step("w", name, from, to);
    }

    private static ProveStartSteps.Step h(String name, double from, double to) {
        return new ProveStartSteps.Step("h", name, from, to);
    }

    /** Two streams: stream h's sort spans stream w's accumulation (as the worker records it). */
    private static ProveStartSteps twoStreams() {
        Map<String, Double> host = new LinkedHashMap<>();
        host.put("enqueue (host)", 4.0);
        host.put("wait for the device", 80.0);
        return new ProveStartSteps(host, List.of(
                w("upload w", 0, 2),
                w("msm B2: accumulate", 2, 30),
                w("msm B2: copy out", 30, 31),
                h("H", 1, 5),
                h("sort h: sort", 5, 28.5),
                h("sort h: tasks", 28.5, 29)), false);
    }

    @Test
    void stepsMergeTheirPartsInOrderPerStream() {
        List<ProveStartSteps.Step> steps = twoStreams().steps();
        assertEquals(List.of(w("upload w", 0, 2), w("msm B2", 2, 31), h("H", 1, 5), h("sort h", 5, 29)), steps);
    }

    @Test
    void ranFindsAStepByItsParts() {
        ProveStartSteps s = twoStreams();
        assertTrue(s.ran("msm B2"));
        assertTrue(s.ran("sort h"));
        assertFalse(s.ran("msm B1"));
        assertFalse(s.ran("msm"));
    }

    @Test
    void summaryGivesSpansOnOneClockWithTheParts() {
        String line = twoStreams().summary();
        assertTrue(line.startsWith("host (ms): enqueue (host) 4.00; wait for the device 80.00;"), line);
        assertTrue(line.contains("stream w: upload w 0.0–2.0, msm B2 2.0–31.0 (accumulate 2.0–30.0, copy out 30.0–31.0);"),
                line);
        assertTrue(line.endsWith("stream h: H 1.0–5.0, sort h 5.0–29.0 (sort 5.0–28.5, tasks 28.5–29.0)"), line);
    }

    @Test
    void aloneGivesEachStepsOwnTimeAndTheirSum() {
        ProveStartSteps alone = new ProveStartSteps(Map.of(), List.of(
                w("upload w", 0, 2), w("msm A: accumulate", 2, 9), w("msm A: copy out", 9, 9.5),
                h("sort h: sort", 9.5, 10.25), h("sort h: tasks", 10.25, 10.5)), true);
        assertEquals(10.5, alone.deviceMillis(), 1e-9);
        String line = alone.summary();
        assertTrue(line.contains("(ms each, sum 10.50)"), line);
        assertTrue(line.contains("stream w: upload w 2.00, msm A 7.50 (accumulate 7.00, copy out 0.50);"), line);
        assertTrue(line.endsWith("stream h: sort h 1.00 (sort 0.75, tasks 0.25)"), line);
    }

    @Test
    void nothingMeasuredSaysSo() {
        assertEquals(0, ProveStartSteps.NONE.deviceMillis());
        assertFalse(ProveStartSteps.NONE.ran("msm B2"));
        assertTrue(ProveStartSteps.NONE.steps().isEmpty());
    }
}

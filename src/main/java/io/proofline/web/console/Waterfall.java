package io.proofline.web.console;

import io.proofline.engine.PartitionStatus;
import io.proofline.engine.StageTimings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A job's per-partition timeline: each partition a row of consecutive bars, one per stage it spent time in,
 * laid out on one time axis so that waits (queue, GPU hand-off) and work line up across partitions. Partitions
 * run in parallel and start at different times, but the engine reports durations only, so every row starts at
 * zero: the bars show where each partition's time went, not when.
 */
public record Waterfall(List<Lane> lanes, Duration scale, List<Tick> ticks) {

    /** The stages a bar can stand for, in pipeline order, with the CSS class that colours it. */
    public enum Segment {
        QUEUE("queue", "queue wait"),
        SYNTHESIS("synth", "synthesis"),
        GPU_WAIT("gpuwait", "GPU wait"),
        PROVING("proving", "prove start"),
        FINALIZING("finalize", "prove finish"),
        VERIFY("verify", "verify");

        private final String cssClass;
        private final String label;

        Segment(String cssClass, String label) {
            this.cssClass = cssClass;
            this.label = label;
        }

        public String cssClass() {
            return cssClass;
        }

        public String label() {
            return label;
        }
    }

    public record Bar(Segment segment, Duration duration, double leftPercent, double widthPercent) {
    }

    public record Lane(PartitionStatus partition, List<Bar> bars, Duration total) {
    }

    public record Tick(double leftPercent, Duration at) {
    }

    public static Waterfall of(List<PartitionStatus> partitions) {
        Duration longest = partitions.stream().map(p -> stagesSum(p.timings())).max(Duration::compareTo)
                .orElse(Duration.ZERO);
        Duration scale = longest.isZero() ? Duration.ofMillis(1) : longest;
        double scaleMillis = scale.toNanos() / 1e6;
        List<Lane> lanes = new ArrayList<>(partitions.size());
        for (PartitionStatus p : partitions) {
            List<Bar> bars = new ArrayList<>();
            double leftMillis = 0;
            Duration[] durations = durations(p.timings());
            for (Segment segment : Segment.values()) {
                Duration d = durations[segment.ordinal()];
                if (d.isZero() || d.isNegative()) {
                    continue;
                }
                double millis = d.toNanos() / 1e6;
                bars.add(new Bar(segment, d, 100 * leftMillis / scaleMillis, 100 * millis / scaleMillis));
                leftMillis += millis;
            }
            lanes.add(new Lane(p, bars, stagesSum(p.timings())));
        }
        List<Tick> ticks = new ArrayList<>();
        for (int i = 0; i <= 4; i++) {
            ticks.add(new Tick(25.0 * i, scale.multipliedBy(i).dividedBy(4)));
        }
        return new Waterfall(lanes, scale, ticks);
    }

    private static Duration[] durations(StageTimings t) {
        return new Duration[]{t.queueWait(), t.synthesis(), t.deviceWait(), t.proving(), t.finalizing(), t.verify()};
    }

    private static Duration stagesSum(StageTimings t) {
        Duration sum = Duration.ZERO;
        for (Duration d : durations(t)) {
            sum = sum.plus(d);
        }
        return sum;
    }
}

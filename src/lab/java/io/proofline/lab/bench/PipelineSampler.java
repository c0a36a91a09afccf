package io.proofline.lab.bench;

import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Reads the service's {@code /api/v1/pipeline} on a thread of its own while a {@code bench http} run goes on: the
 * largest resident set seen, the process's own high-water mark, and for each proving device the fraction of samples
 * in which at least one of its workers ran prove start (the pipeline shows busy workers now, not busy time, so the
 * fraction is as fine as the sampling period).
 */
final class PipelineSampler implements AutoCloseable {

    static final Duration PERIOD = Duration.ofMillis(50);

    /** What a run saw. */
    record Figures(long peakRssBytes, long rssHighWaterBytes, Map<String, Double> busyFraction, int samples) {

        /** {@code gpu0=0.93 gpu1=0.91}, fallback devices left out unless they are the only ones. */
        String busyText() {
            if (busyFraction.isEmpty()) {
                return "-";
            }
            StringJoiner text = new StringJoiner(" ");
            busyFraction.forEach((id, f) -> text.add(id + "=" + String.format("%.2f", f)));
            return text.toString();
        }
    }

    private final ServiceClient client;
    private final Thread thread;
    private final Map<String, int[]> busySamples = new LinkedHashMap<>();
    private volatile boolean stop;
    private long peakRss;
    private long highWater;
    private int samples;
    private String failure;

    PipelineSampler(ServiceClient client) {
        this.client = client;
        this.thread = Thread.ofPlatform().daemon().name("bench-http-pipeline").start(this::sample);
    }

    private void sample() {
        while (!stop) {
            try {
                record(client.pipeline());
                Thread.sleep(PERIOD);
            } catch (InterruptedException e) {
                return;
            } catch (Exception e) {
                synchronized (this) {
                    failure = e.toString();
                }
                return;
            }
        }
    }

    private synchronized void record(JsonNode snapshot) {
        JsonNode process = snapshot.path("process");
        peakRss = Math.max(peakRss, process.path("rssBytes").asLong(-1));
        highWater = Math.max(highWater, process.path("rssPeakBytes").asLong(-1));
        boolean anyPrimary = false;
        for (JsonNode d : snapshot.path("devices")) {
            anyPrimary |= !d.path("fallback").asBoolean(false);
        }
        for (JsonNode d : snapshot.path("devices")) {
            if (anyPrimary && d.path("fallback").asBoolean(false)) {
                continue;
            }
            int[] counts = busySamples.computeIfAbsent(d.path("id").asString(), id -> new int[2]);
            counts[0] += d.path("busyWorkers").asInt(0) > 0 ? 1 : 0;
            counts[1]++;
        }
        samples++;
    }

    /** Stops sampling and answers what was seen; fails if the endpoint could not be read. */
    Figures finish() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join();
        synchronized (this) {
            if (failure != null) {
                throw new IllegalStateException("reading /api/v1/pipeline failed: " + failure);
            }
            Map<String, Double> busy = new LinkedHashMap<>();
            busySamples.forEach((id, c) -> busy.put(id, c[1] == 0 ? 0 : (double) c[0] / c[1]));
            return new Figures(peakRss, highWater, busy, samples);
        }
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        thread.interrupt();
        thread.join();
    }
}

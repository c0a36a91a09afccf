package io.proofline.lab.gpu;

import io.proofline.gpu.internal.GpuStream;
import io.proofline.gpu.internal.StepTimes;
import jcuda.driver.CUevent;
import jcuda.driver.CUevent_flags;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.proofline.gpu.internal.CudaException.check;
import static jcuda.driver.JCudaDriver.cuEventCreate;
import static jcuda.driver.JCudaDriver.cuEventDestroy;
import static jcuda.driver.JCudaDriver.cuEventElapsedTime;
import static jcuda.driver.JCudaDriver.cuEventRecord;
import static jcuda.driver.JCudaDriver.cuEventSynchronize;

/**
 * {@link StepTimes} that records them: a CUDA event on the stream at each step's end, the gaps read after the stream is
 * done, as durations per step ({@link #millis()}) or as spans on one clock shared with another stream
 * ({@link #spans}).
 */
final class EventStepTimes implements StepTimes, AutoCloseable {

    private final List<String> names = new ArrayList<>();
    private final List<CUevent> events = new ArrayList<>();

    @Override
    public void mark(String stage, GpuStream stream) {
        CUevent event = new CUevent();
        check(cuEventCreate(event, CUevent_flags.CU_EVENT_DEFAULT), "cuEventCreate");
        check(cuEventRecord(event, stream.handle()), "cuEventRecord(" + stage + ")");
        names.add(stage);
        events.add(event);
    }

    /** Milliseconds per stage, in order, a stage marked twice summed (waits for the last event). */
    Map<String, Double> millis() {
        Map<String, Double> out = new LinkedHashMap<>();
        if (events.isEmpty()) {
            return out;
        }
        check(cuEventSynchronize(events.getLast()), "cuEventSynchronize");
        float[] ms = new float[1];
        for (int i = 1; i < events.size(); i++) {
            check(cuEventElapsedTime(ms, events.get(i - 1), events.get(i)), "cuEventElapsedTime");
            out.merge(names.get(i), (double) ms[0], Double::sum);
        }
        return out;
    }

    /**
     * Each stage (after the first mark) as {from, to} in ms after {@code origin}'s first mark, in order; {@code origin}
     * may be this or the times of another stream of the same context (one clock for both). Waits for both last events.
     */
    List<Span> spans(EventStepTimes origin) {
        List<Span> out = new ArrayList<>();
        if (events.isEmpty() || origin.events.isEmpty()) {
            return out;
        }
        check(cuEventSynchronize(events.getLast()), "cuEventSynchronize");
        check(cuEventSynchronize(origin.events.getLast()), "cuEventSynchronize");
        CUevent zero = origin.events.getFirst();
        float[] ms = new float[1];
        double from = elapsed(zero, events.getFirst(), ms);
        for (int i = 1; i < events.size(); i++) {
            double to = elapsed(zero, events.get(i), ms);
            out.add(new Span(names.get(i), from, to));
            from = to;
        }
        return out;
    }

    /** A stage from its start to its end, ms after an origin event. */
    record Span(String stage, double fromMs, double toMs) {
    }

    private static double elapsed(CUevent from, CUevent to, float[] ms) {
        check(cuEventElapsedTime(ms, from, to), "cuEventElapsedTime");
        return ms[0];
    }

    /** "stage ms stage ms ..." (three decimals), in order: the one-line stage split that the benchmarks print. */
    String summary() {
        StringBuilder line = new StringBuilder();
        millis().forEach((k, v) -> line.append(line.isEmpty() ? "" : " ").append(String.format(Locale.ROOT,
                "%s %.3f", k, v)));
        return line.toString();
    }

    @Override
    public void close() {
        for (CUevent e : events) {
            check(cuEventDestroy(e), "cuEventDestroy");
        }
        events.clear();
        names.clear();
    }
}

package io.proofline.lab.gpu;

import io.proofline.gpu.internal.GpuEvent;
import io.proofline.gpu.internal.GpuStream;
import io.proofline.gpu.internal.ProveStartProbe;
import io.proofline.gpu.internal.StepTimes;

import java.util.ArrayList;
import java.util.List;

/**
 * The lab's {@link ProveStartProbe}: records each prove start's steps — the host's on its clock, the device's as CUDA
 * events on both streams — and keeps the last one's as {@link ProveStartSteps}. {@link #aloneNext()} makes the next
 * prove start run its steps one after the other (stream h waits for all of stream w's work), so that each step's span
 * is its own device time: a diagnostic, slower than the two streams overlapping.
 */
final class ProveStartRecorder implements ProveStartProbe {

    private HostStepClock clock = new HostStepClock();
    private EventStepTimes onW;
    private EventStepTimes onH;
    private GpuEvent wDone;
    private boolean aloneNext;
    private boolean alone;
    private volatile ProveStartSteps last = ProveStartSteps.NONE;

    /** The next prove start runs its steps one after the other. */
    synchronized void aloneNext() {
        aloneNext = true;
    }

    /** The last prove start's steps; {@link ProveStartSteps#NONE} before the first. */
    ProveStartSteps last() {
        return last;
    }

    @Override
    public synchronized void begins() {
        release();
        alone = aloneNext;
        aloneNext = false;
        onW = new EventStepTimes();
        onH = new EventStepTimes();
        clock = new HostStepClock();
    }

    @Override
    public synchronized StepTimes steps(String stream) {
        return stream.equals("w") ? onW : onH;
    }

    @Override
    public synchronized void streamWQueued(GpuStream w, GpuStream h) {
        if (alone) {
            wDone = GpuEvent.record(w);
            h.waitFor(wDone);
        }
    }

    @Override
    public synchronized void hostStep(String step) {
        clock.lap(step);
    }

    @Override
    public synchronized void ends() {
        List<ProveStartSteps.Step> device = new ArrayList<>();
        onW.spans(onW).forEach(s -> device.add(new ProveStartSteps.Step("w", s.stage(), s.fromMs(), s.toMs())));
        onH.spans(onW).forEach(s -> device.add(new ProveStartSteps.Step("h", s.stage(), s.fromMs(), s.toMs())));
        last = new ProveStartSteps(clock.laps(), device, alone);
        release();
    }

    /** Destroys the events of the last prove start (also of one that failed before its end). */
    private void release() {
        for (AutoCloseable events : new AutoCloseable[] {onW, onH, wDone}) {
            if (events != null) {
                try {
                    events.close();
                } catch (Exception e) {
                    // a broken context fails every call; its events go with it
                }
            }
        }
        onW = null;
        onH = null;
        wDone = null;
    }
}

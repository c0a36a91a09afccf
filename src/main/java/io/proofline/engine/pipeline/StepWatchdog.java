package io.proofline.engine.pipeline;

import io.proofline.engine.memory.BufferTracker;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.prover.DeviceFaultKind;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.Stage;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Liveness by progress for the steps that run in a device's port calls (prove start, prove finish): a call that has
 * not returned within {@code stepTimeout} is taken for a hung device. When another device can take the partition,
 * the step fails over: the device counts a {@link DeviceFaultKind#HUNG} fault (its breaker opens), the partition's
 * attempt is abandoned to the stuck call and the partition goes back to the queue at its place to be proved
 * elsewhere (the CPU fallback included). When no other device can, nothing is gained by giving up: the step goes on,
 * and the watchdog looks again after another {@code stepTimeout}.
 */
final class StepWatchdog<S, P> {

    /** A watched call; {@link #close()} when it returns. */
    interface Watch extends AutoCloseable {
        @Override
        void close();
    }

    private final ScheduledExecutorService timers;
    private final Duration stepTimeout;
    private final DevicePool devices;
    private final Lifecycle<S, P> lifecycle;
    private final BufferTracker tracker;
    private final AtomicLong overruns = new AtomicLong();

    StepWatchdog(ScheduledExecutorService timers, Duration stepTimeout, DevicePool devices, Lifecycle<S, P> lifecycle,
                 BufferTracker tracker) {
        this.timers = timers;
        this.stepTimeout = stepTimeout;
        this.devices = devices;
        this.lifecycle = lifecycle;
        this.tracker = tracker;
    }

    /**
     * Watches the calling thread's port call on {@code device} for {@code partition}'s current attempt, which enters
     * its step now. After the call the caller closes the watch and asks {@link Attempt#endStep()} whether the attempt
     * is still its own.
     */
    Watch watch(PartitionRun<S, P> partition, Attempt<S, P> attempt, ProvingDevice device, Stage step) {
        return watch(partition, attempt, device, step, () -> { });
    }

    /** As {@link #watch(PartitionRun, Attempt, ProvingDevice, Stage)}; {@code onAbandoned} runs when it fails over. */
    Watch watch(PartitionRun<S, P> partition, Attempt<S, P> attempt, ProvingDevice device, Stage step,
                Runnable onAbandoned) {
        attempt.beginStep();
        Thread caller = Thread.currentThread();
        Arming arming = new Arming(partition, attempt, device, step, caller, onAbandoned);
        arming.arm();
        return arming;
    }

    /** Steps that overran their limit so far (whether they failed over or went on). */
    long overruns() {
        return overruns.get();
    }

    private final class Arming implements Watch {
        private final PartitionRun<S, P> partition;
        private final Attempt<S, P> attempt;
        private final ProvingDevice device;
        private final Stage step;
        private final Thread caller;
        private final Runnable onAbandoned;
        private final long startedNanos = System.nanoTime();
        private Future<?> timer;
        private boolean closed;

        Arming(PartitionRun<S, P> partition, Attempt<S, P> attempt, ProvingDevice device, Stage step, Thread caller,
               Runnable onAbandoned) {
            this.partition = partition;
            this.attempt = attempt;
            this.device = device;
            this.step = step;
            this.caller = caller;
            this.onAbandoned = onAbandoned;
        }

        synchronized void arm() {
            if (closed) {
                return;
            }
            try {
                timer = timers.schedule(this::overran, stepTimeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException shuttingDown) {
                // shutdown cancels the partition anyway
            }
        }

        @Override
        public synchronized void close() {
            closed = true;
            if (timer != null) {
                timer.cancel(false);
            }
        }

        private void overran() {
            synchronized (this) {
                if (closed) {
                    return;
                }
            }
            overruns.incrementAndGet();
            Duration running = Duration.ofNanos(System.nanoTime() - startedNanos);
            String what = partition + " " + step.name().toLowerCase() + " on " + device.id() + " has run " + running;
            if (partition.cancelRequested() || partition.isFinished() || !devices.hasAlternative(partition, device)) {
                tracker.event(what + ", past the step timeout of " + stepTimeout + "; no other device can take it, "
                        + "so it goes on");
                arm();
                return;
            }
            if (!attempt.abandon()) {
                return; // the call returned meanwhile
            }
            onAbandoned.run();
            DeviceFaultException hung = new DeviceFaultException("device " + device.id() + " did not return from "
                    + step.name().toLowerCase() + " within " + stepTimeout, null, DeviceFaultKind.HUNG);
            devices.recordFault(device, hung);
            partition.exclude(device, hung);
            tracker.event(what + ", past the step timeout of " + stepTimeout + ": the device is taken for hung and "
                    + "the partition goes back to the queue to be proved elsewhere");
            lifecycle.restart(partition);
            synchronized (this) {
                // Only while the caller is still in the call (it clears a late interrupt before it moves on): an
                // interruptible call (the CPU backend's) then stops instead of computing a proof no one will use.
                if (!closed) {
                    caller.interrupt();
                }
            }
        }
    }
}

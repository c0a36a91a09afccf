package io.proofline.engine.pipeline;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.proofline.snark.prover.DeviceFaultException;
import io.proofline.snark.prover.DeviceFaultKind;
import io.proofline.engine.device.DeviceFigures;
import io.proofline.engine.device.DeviceRoomTimeoutException;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.NoDeviceAvailableException;
import io.proofline.engine.device.ProvingDevice;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The proving devices, each behind a Resilience4j {@link Bulkhead} ({@code workersPerDevice} concurrent
 * prove starts) and {@link CircuitBreaker} (device faults open it; an open device is skipped until its
 * retry time passes). A device that cannot be opened or whose context a sticky fault broke opens its breaker at
 * once, and the sticky one is {@linkplain ProvingDevice#reset() reset} before its half-open trial; a device that
 * refuses a partition for capacity is healthy and its breaker is untouched ({@link RoomRefusals}). Placement picks the least-loaded device that will take the work; {@linkplain
 * ProvingDevice#fallback() fallback} devices (the CPU beside GPUs) only when no other device can take it.
 */
final class DevicePool {

    /** @param resetDue set by a sticky fault, cleared by a successful {@link ProvingDevice#reset()} */
    private record Slot(int order, ProvingDevice device, Bulkhead bulkhead, CircuitBreaker breaker,
                        AtomicBoolean resetDue) {

        int busy() {
            return bulkhead.getBulkheadConfig().getMaxConcurrentCalls()
                    - bulkhead.getMetrics().getAvailableConcurrentCalls();
        }

        boolean isOpen() {
            CircuitBreaker.State state = breaker.getState();
            return state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN;
        }

        /**
         * A device that cannot be opened, or whose context a sticky fault broke, fails every call until something
         * changes: its breaker opens now instead of after the failure rate builds up over several partitions.
         */
        void afterFault(DeviceFaultKind kind) {
            if (kind == DeviceFaultKind.STICKY) {
                resetDue.set(true);
            }
            if (kind != DeviceFaultKind.TRANSIENT && breaker.getState() != CircuitBreaker.State.OPEN) {
                breaker.transitionToOpenState();
            }
        }
    }

    private record Placement(Lease lease, boolean busy) {
    }

    /** How often a waiting placement looks again even without a lease closing (open breakers time out). */
    private static final Duration RECHECK = Duration.ofMillis(200);

    private final List<Slot> slots;
    private final Duration admissionWait;
    /** Leases closed after their prove start ran; guarded by {@link #lock}. */
    private long completions;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition freed = lock.newCondition();

    DevicePool(List<? extends ProvingDevice> devices, EngineConfig config) {
        if (devices.isEmpty()) {
            throw new IllegalArgumentException("at least one proving device is needed (the CPU backend is one)");
        }
        BulkheadConfig bulkheadConfig = BulkheadConfig.custom()
                .maxConcurrentCalls(config.workersPerDevice())
                .maxWaitDuration(Duration.ZERO)
                .build();
        CircuitBreakerConfig breakerConfig = CircuitBreakerConfig.custom()
                .slidingWindowType(CircuitBreakerConfig.SlidingWindowType.COUNT_BASED)
                .slidingWindowSize(EngineConfig.BREAKER_WINDOW)
                .minimumNumberOfCalls(config.breakerMinimumCalls())
                .failureRateThreshold(50)
                .permittedNumberOfCallsInHalfOpenState(1)
                .waitDurationInOpenState(config.deviceRetryAfter())
                .build();
        List<Slot> list = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (ProvingDevice device : devices) {
            if (!ids.add(device.id())) {
                throw new IllegalArgumentException("duplicate device id " + device.id());
            }
            list.add(new Slot(list.size(), device, Bulkhead.of(device.id(), bulkheadConfig),
                    CircuitBreaker.of(device.id(), breakerConfig), new AtomicBoolean()));
        }
        this.slots = List.copyOf(list);
        this.admissionWait = config.admissionWait();
    }

    int workers() {
        return slots.stream().mapToInt(s -> s.bulkhead.getBulkheadConfig().getMaxConcurrentCalls()).sum();
    }

    /**
     * A permit on the least-loaded device that has not faulted on {@code partition}, whose breaker lets work through
     * and that has room for it, waiting while such devices are merely busy. A device that refused the partition for
     * capacity is left out for it until a prove start ended somewhere or a second passed (one that never fits, for
     * good); when every device is left out so, the partition waits for room, at most
     * {@link EngineConfig#admissionWait()} from the first refusal. Fallback devices are considered only when no
     * other device can take the partition at all (every other one is excluded, without room, or has its breaker
     * open).
     *
     * @throws NoDeviceAvailableException when every candidate's breaker is open, or there is no candidate
     * @throws DeviceRoomTimeoutException when the partition waited for room past the admission wait
     */
    Lease acquire(PartitionRun<?, ?> partition) throws InterruptedException {
        Set<String> excluded = partition.faultedDevices();
        RoomRefusals room = partition.room();
        lock.lockInterruptibly();
        try {
            while (true) {
                List<Slot> candidates = slots.stream().filter(s -> !excluded.contains(s.device.id())
                        && !room.neverFits(s.device.id())).toList();
                if (candidates.isEmpty()) {
                    if (excluded.size() < slots.size()) {
                        throw new NoDeviceAvailableException("the partition fits none of the devices that have not "
                                + "faulted on it", room.last());
                    }
                    throw new NoDeviceAvailableException("every device faulted on this partition",
                            partition.lastFault());
                }
                long now = System.nanoTime();
                List<Slot> full = candidates.stream().filter(s -> room.stillFull(s.device.id(), completions, now))
                        .toList();
                List<Slot> roomy = candidates.stream().filter(s -> !full.contains(s)).toList();
                Placement preferred = place(roomy.stream().filter(s -> !s.device.fallback()).toList());
                if (preferred.lease != null) {
                    return preferred.lease;
                }
                // A device that refused the partition for room is left out like a faulted one (it fits elsewhere,
                // the fallback included), while one that is merely busy is waited for.
                if (!preferred.busy) {
                    Placement fallback = place(roomy.stream().filter(s -> s.device.fallback()).toList());
                    if (fallback.lease != null) {
                        return fallback.lease;
                    }
                    if (!fallback.busy && full.isEmpty()) {
                        throw new NoDeviceAvailableException("circuit breakers open on " + candidates.stream()
                                .map(s -> s.device.id()).toList(), partition.lastFault());
                    }
                }
                long waited = room.waitedNanos(now);
                if (!full.isEmpty() && waited > admissionWait.toNanos()) {
                    throw new DeviceRoomTimeoutException(partition.job().id(), partition.index(),
                            Duration.ofNanos(waited), room.last());
                }
                // Woken when a lease closes; the timeout notices an open breaker whose retry time has passed.
                freed.await(RECHECK.toNanos(), TimeUnit.NANOSECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    /** How many leases ended after their prove start ran (what frees device memory): a full device's hint. */
    long completions() {
        lock.lock();
        try {
            return completions;
        } finally {
            lock.unlock();
        }
    }

    /** A lease on one of {@code tier}, least busy first; else whether any of them is busy (rather than open). */
    private Placement place(List<Slot> tier) {
        List<Slot> byLoad = tier.stream().sorted(Comparator.comparingInt(Slot::busy).thenComparingInt(Slot::order))
                .toList();
        boolean anyBusy = false;
        for (Slot slot : byLoad) {
            if (!slot.bulkhead.tryAcquirePermission()) {
                anyBusy |= !slot.isOpen();
                continue;
            }
            if (slot.breaker.tryAcquirePermission()) {
                return new Placement(new Lease(slot), false);
            }
            slot.bulkhead.releasePermission();
            anyBusy |= slot.breaker.getState() == CircuitBreaker.State.HALF_OPEN;
        }
        return new Placement(null, anyBusy);
    }

    /**
     * Counts a device fault that happened outside a lease (in prove finish, which must stay on the device that
     * started the proof and so cannot be retried elsewhere) against the device's breaker.
     */
    void recordFault(ProvingDevice device, DeviceFaultException fault) {
        for (Slot slot : slots) {
            if (slot.device.id().equals(device.id())) {
                slot.breaker.onError(0, TimeUnit.NANOSECONDS, fault);
                slot.afterFault(fault.kind());
            }
        }
    }

    List<DeviceFigures> figures() {
        return slots.stream().map(s -> new DeviceFigures(s.device.id(), s.device.memory(), s.busy(),
                s.bulkhead.getBulkheadConfig().getMaxConcurrentCalls(), s.breaker.getState().name(), s.device.fallback()))
                .toList();
    }

    /** One prove start's hold on a device: record its outcome once, then close it. */
    final class Lease implements AutoCloseable {
        private final Slot slot;
        private final long startNanos = System.nanoTime();
        private boolean recorded;
        private boolean ran;
        private boolean closed;

        private Lease(Slot slot) {
            this.slot = slot;
        }

        ProvingDevice device() {
            return slot.device;
        }

        /**
         * Resets the device first when a sticky fault broke it (this lease is then its half-open trial: the breaker
         * opened at the fault and lets one call through).
         *
         * @throws DeviceFaultException (sticky) when the reset failed: the device stays due for one
         */
        void prepare() throws DeviceFaultException, InterruptedException {
            if (!slot.resetDue.get()) {
                return;
            }
            try {
                slot.device.reset();
            } catch (InterruptedException e) {
                throw e;
            } catch (Exception e) {
                throw new DeviceFaultException("device " + slot.device.id() + " could not be reset after a sticky "
                        + "fault: " + e.getMessage(), e, DeviceFaultKind.STICKY);
            }
            slot.resetDue.set(false);
        }

        void succeeded() {
            if (!recorded) {
                recorded = true;
                ran = true;
                slot.breaker.onSuccess(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
            }
        }

        void faulted(DeviceFaultException fault) {
            if (!recorded) {
                recorded = true;
                ran = true;
                slot.breaker.onError(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS, fault);
                slot.afterFault(fault.kind());
            }
        }

        /** Neither the device's success nor its fault: the partition failed or was cancelled. */
        void abandoned() {
            if (!recorded) {
                recorded = true;
                slot.breaker.releasePermission();
            }
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            abandoned();
            lock.lock();
            try {
                slot.bulkhead.onComplete();
                if (ran) {
                    completions++;
                }
                freed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}

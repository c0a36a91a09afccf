package io.proofline.engine.internal;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.proofline.engine.DeviceFigures;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.NoDeviceAvailableException;
import io.proofline.engine.ProvingDevice;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The proving devices, each behind a Resilience4j {@link Bulkhead} ({@code workersPerDevice} concurrent
 * prove starts) and {@link CircuitBreaker} (device faults open it; an open device is skipped until its
 * retry time passes). Placement picks the least-loaded device that will take the work; {@linkplain
 * ProvingDevice#fallback() fallback} devices (the CPU beside GPUs) only when no other device can take it.
 */
final class DevicePool {

    private record Slot(int order, ProvingDevice device, Bulkhead bulkhead, CircuitBreaker breaker) {

        int busy() {
            return bulkhead.getBulkheadConfig().getMaxConcurrentCalls()
                    - bulkhead.getMetrics().getAvailableConcurrentCalls();
        }

        boolean isOpen() {
            CircuitBreaker.State state = breaker.getState();
            return state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN;
        }
    }

    private record Placement(Lease lease, boolean busy) {
    }

    /** How often a waiting placement looks again even without a lease closing (open breakers time out). */
    private static final Duration RECHECK = Duration.ofMillis(200);

    private final List<Slot> slots;
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
                    CircuitBreaker.of(device.id(), breakerConfig)));
        }
        this.slots = List.copyOf(list);
    }

    int workers() {
        return slots.stream().mapToInt(s -> s.bulkhead.getBulkheadConfig().getMaxConcurrentCalls()).sum();
    }

    /**
     * A permit on the least-loaded device not in {@code excluded} whose breaker lets work through, waiting
     * while such devices are merely busy. Fallback devices are considered only when no other device can take
     * the partition at all (every other one is excluded or its breaker is open).
     *
     * @throws NoDeviceAvailableException when every candidate's breaker is open, or there is no candidate
     */
    Lease acquire(Set<String> excluded, Throwable lastFault) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (true) {
                List<Slot> candidates = slots.stream().filter(s -> !excluded.contains(s.device.id())).toList();
                if (candidates.isEmpty()) {
                    throw new NoDeviceAvailableException("every device faulted on this partition", lastFault);
                }
                Placement preferred = place(candidates.stream().filter(s -> !s.device.fallback()).toList());
                if (preferred.lease != null) {
                    return preferred.lease;
                }
                if (!preferred.busy) {
                    Placement fallback = place(candidates.stream().filter(s -> s.device.fallback()).toList());
                    if (fallback.lease != null) {
                        return fallback.lease;
                    }
                    if (!fallback.busy) {
                        throw new NoDeviceAvailableException("circuit breakers open on " + candidates.stream()
                                .map(s -> s.device.id()).toList(), lastFault);
                    }
                }
                // Woken when a lease closes; the timeout notices an open breaker whose retry time has passed.
                freed.await(RECHECK.toNanos(), TimeUnit.NANOSECONDS);
            }
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
    void recordFault(ProvingDevice device, Throwable fault) {
        for (Slot slot : slots) {
            if (slot.device.id().equals(device.id())) {
                slot.breaker.onError(0, TimeUnit.NANOSECONDS, fault);
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
        private boolean closed;

        private Lease(Slot slot) {
            this.slot = slot;
        }

        ProvingDevice device() {
            return slot.device;
        }

        void succeeded() {
            if (!recorded) {
                recorded = true;
                slot.breaker.onSuccess(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
            }
        }

        void faulted(Throwable fault) {
            if (!recorded) {
                recorded = true;
                slot.breaker.onError(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS, fault);
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
                freed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}

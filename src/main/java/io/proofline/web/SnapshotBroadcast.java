package io.proofline.web;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.service.BusyException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The pipeline snapshot as server-sent events ({@code snapshot}, once a period) to many subscribers, bounded three
 * ways. Each owner (an API key, the console's user) may hold at most {@code perOwner} streams; one more is refused
 * with 429. Each stream ends after {@code timeout} (EventSource reconnects by itself), so dead connections do not
 * pile up. And a slow reader stalls no one: the ticker only hands each subscriber the newest snapshot (a mailbox of
 * one, overwritten, so an unread snapshot is dropped rather than queued) and the writing happens on the
 * subscriber's own virtual thread, so a reader whose socket is full blocks only itself.
 */
public final class SnapshotBroadcast implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SnapshotBroadcast.class);

    private final Supplier<PipelineSnapshot> source;
    private final int perOwner;
    private final Duration timeout;
    private final Set<Subscriber> subscribers = ConcurrentHashMap.newKeySet();
    private final Map<String, Integer> streamsByOwner = new HashMap<>();
    private final ScheduledExecutorService ticker;
    private final ExecutorService writers = Executors.newVirtualThreadPerTaskExecutor();

    public SnapshotBroadcast(Supplier<PipelineSnapshot> source, Duration period, int perOwner, Duration timeout,
                      String name) {
        if (perOwner < 1) {
            throw new IllegalArgumentException("streams-per-key must be at least 1, was " + perOwner);
        }
        this.source = source;
        this.perOwner = perOwner;
        this.timeout = timeout;
        this.ticker = Executors.newSingleThreadScheduledExecutor(Thread.ofPlatform().name(name).daemon().factory());
        ticker.scheduleAtFixedRate(this::publish, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * A new stream for {@code owner}, whose first snapshot goes out at once.
     *
     * @throws BusyException (429) when the owner already holds {@code perOwner} streams
     */
    public SseEmitter subscribe(String owner) {
        SseEmitter emitter = new SseEmitter(timeout.toMillis());
        Runnable unsubscribe = register(owner, new Sink() {
            @Override
            public void send(PipelineSnapshot snapshot) throws IOException {
                emitter.send(SseEmitter.event().name("snapshot").data(snapshot, MediaType.APPLICATION_JSON));
            }

            @Override
            public void fail(Exception e) {
                emitter.completeWithError(e);
            }

            @Override
            public void end() {
                emitter.complete();
            }
        });
        emitter.onCompletion(unsubscribe);
        emitter.onTimeout(unsubscribe);
        emitter.onError(e -> unsubscribe.run());
        return emitter;
    }

    /** Where a subscriber's snapshots are written; {@link #send} may block as long as its reader does. */
    interface Sink {
        void send(PipelineSnapshot snapshot) throws IOException;

        /** The reader is gone: end the stream. */
        void fail(Exception e);

        /** The service stops: end the stream normally. */
        void end();
    }

    /**
     * Subscribes {@code sink} for {@code owner} and offers it the current snapshot at once; answers what
     * unsubscribes it.
     *
     * @throws BusyException (429) when the owner already holds {@code perOwner} streams
     */
    Runnable register(String owner, Sink sink) {
        synchronized (streamsByOwner) {
            int held = streamsByOwner.getOrDefault(owner, 0);
            if (held >= perOwner) {
                throw new BusyException("at most " + perOwner + " event streams per client; close one first",
                        Duration.ofSeconds(1), false);
            }
            streamsByOwner.put(owner, held + 1);
        }
        Subscriber subscriber = new Subscriber(owner, sink);
        subscribers.add(subscriber);
        subscriber.offer(source.get());
        return () -> remove(subscriber);
    }

    /** Streams open now (all owners). */
    public int open() {
        return subscribers.size();
    }

    private void publish() {
        if (subscribers.isEmpty()) {
            return;
        }
        try {
            PipelineSnapshot snapshot = source.get();
            subscribers.forEach(s -> s.offer(snapshot));
        } catch (RuntimeException e) {
            LOG.warn("could not publish a pipeline snapshot", e);
        }
    }

    private void remove(Subscriber subscriber) {
        if (subscribers.remove(subscriber)) {
            synchronized (streamsByOwner) {
                streamsByOwner.computeIfPresent(subscriber.owner, (o, n) -> n > 1 ? n - 1 : null);
            }
        }
    }

    @Override
    public void close() {
        ticker.shutdownNow();
        subscribers.forEach(s -> s.sink.end());
        writers.shutdownNow();
    }

    /** One stream: its newest unsent snapshot and whether a writer is on it. */
    private final class Subscriber {
        final String owner;
        final Sink sink;
        final AtomicReference<PipelineSnapshot> pending = new AtomicReference<>();
        final AtomicBoolean writing = new AtomicBoolean();

        Subscriber(String owner, Sink sink) {
            this.owner = owner;
            this.sink = sink;
        }

        /** Replaces the unsent snapshot, if any, and starts a writer unless one is running. */
        void offer(PipelineSnapshot snapshot) {
            pending.set(snapshot);
            if (writing.compareAndSet(false, true)) {
                try {
                    writers.execute(this::drain);
                } catch (RuntimeException closed) {
                    writing.set(false);
                }
            }
        }

        private void drain() {
            while (true) {
                PipelineSnapshot next = pending.getAndSet(null);
                if (next == null) {
                    writing.set(false);
                    // an offer between the read and the flag found the writer still on: take its snapshot
                    if (pending.get() == null || !writing.compareAndSet(false, true)) {
                        return;
                    }
                    continue;
                }
                try {
                    sink.send(next);
                } catch (IOException | RuntimeException gone) {
                    remove(this);
                    sink.fail(gone);
                    writing.set(false);
                    return;
                }
            }
        }
    }
}

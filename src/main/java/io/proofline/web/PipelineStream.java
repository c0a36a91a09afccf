package io.proofline.web;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /api/v1/pipeline/stream}: the pipeline snapshot of {@code GET /api/v1/pipeline} as server-sent events,
 * one {@code pipeline} event per {@link #PERIOD} to every subscriber. A timer rather than the tracker's lifecycle
 * events: RSS and heap move between events, and a burst of events would flood slow clients; one second is what
 * an eye (and the console's chart) can follow.
 */
@RestController
class PipelineStream implements AutoCloseable {

    static final Duration PERIOD = Duration.ofSeconds(1);
    /** Subscribers reconnect (EventSource does so by itself) after this, so dead connections do not pile up. */
    static final Duration EMITTER_TIMEOUT = Duration.ofMinutes(30);
    private static final Logger LOG = LoggerFactory.getLogger(PipelineStream.class);

    private final ProvingEngine engine;
    private final List<SseEmitter> subscribers = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("pipeline-stream").daemon().factory());

    PipelineStream(ProvingEngine engine) {
        this.engine = engine;
        timer.scheduleAtFixedRate(this::publish, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    @GetMapping(value = "/api/v1/pipeline/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter stream() {
        SseEmitter emitter = new SseEmitter(EMITTER_TIMEOUT.toMillis());
        emitter.onCompletion(() -> subscribers.remove(emitter));
        emitter.onTimeout(() -> subscribers.remove(emitter));
        emitter.onError(e -> subscribers.remove(emitter));
        // The first event goes out at once, so a page does not wait a period for its first figures.
        if (send(emitter, engine.snapshot())) {
            subscribers.add(emitter);
        }
        return emitter;
    }

    private void publish() {
        if (subscribers.isEmpty()) {
            return;
        }
        try {
            PipelineSnapshot snapshot = engine.snapshot();
            for (SseEmitter emitter : subscribers) {
                if (!send(emitter, snapshot)) {
                    subscribers.remove(emitter);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("pipeline stream: could not publish a snapshot", e);
        }
    }

    private static boolean send(SseEmitter emitter, PipelineSnapshot snapshot) {
        try {
            emitter.send(SseEmitter.event().name("pipeline").data(snapshot, MediaType.APPLICATION_JSON));
            return true;
        } catch (IOException | IllegalStateException e) {
            emitter.completeWithError(e);
            return false;
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        subscribers.forEach(SseEmitter::complete);
    }
}

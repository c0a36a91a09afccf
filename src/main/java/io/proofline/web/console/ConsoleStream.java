package io.proofline.web.console;

import io.proofline.engine.PipelineSnapshot;
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
 * {@code GET /console/stream}: the snapshot stream of {@code /api/v1/pipeline/stream} (same events, same JSON) for
 * the console's page, under the admin session. The API's stream takes API keys only, and a key must not be put
 * into a web page; this one is reached with the session that loaded the page.
 */
@RestController
class ConsoleStream implements AutoCloseable {

    static final Duration PERIOD = Duration.ofSeconds(1);
    /** EventSource reconnects by itself; a bounded lifetime keeps dead connections from piling up. */
    static final Duration EMITTER_TIMEOUT = Duration.ofMinutes(30);
    private static final Logger LOG = LoggerFactory.getLogger(ConsoleStream.class);

    private final ConsoleBackend backend;
    private final List<SseEmitter> subscribers = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            Thread.ofPlatform().name("console-stream").daemon().factory());

    ConsoleStream(ConsoleBackend backend) {
        this.backend = backend;
        timer.scheduleAtFixedRate(this::publish, PERIOD.toMillis(), PERIOD.toMillis(), TimeUnit.MILLISECONDS);
    }

    @GetMapping(value = "/console/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter stream() {
        SseEmitter emitter = new SseEmitter(EMITTER_TIMEOUT.toMillis());
        emitter.onCompletion(() -> subscribers.remove(emitter));
        emitter.onTimeout(() -> subscribers.remove(emitter));
        emitter.onError(e -> subscribers.remove(emitter));
        // The first event goes out at once, so the page does not wait a period for its first figures.
        if (send(emitter, backend.snapshot())) {
            subscribers.add(emitter);
        }
        return emitter;
    }

    private void publish() {
        if (subscribers.isEmpty()) {
            return;
        }
        try {
            PipelineSnapshot snapshot = backend.snapshot();
            for (SseEmitter emitter : subscribers) {
                if (!send(emitter, snapshot)) {
                    subscribers.remove(emitter);
                }
            }
        } catch (RuntimeException e) {
            LOG.warn("console stream: could not publish a snapshot", e);
        }
    }

    private static boolean send(SseEmitter emitter, PipelineSnapshot snapshot) {
        try {
            emitter.send(SseEmitter.event().name("snapshot").data(snapshot, MediaType.APPLICATION_JSON));
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

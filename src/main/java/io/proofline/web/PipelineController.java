package io.proofline.web;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.annotation.PreDestroy;
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

@RestController
@Tag(name = "pipeline", description = "the buffer table and memory figures (DESIGN §3)")
class PipelineController {

    /** How often the stream sends a snapshot. */
    static final Duration STREAM_PERIOD = Duration.ofSeconds(1);

    private final ProvingEngine engine;
    private final List<SseEmitter> emitters = new CopyOnWriteArrayList<>();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "proofline-pipeline-stream");
        t.setDaemon(true);
        return t;
    });

    PipelineController(ProvingEngine engine) {
        this.engine = engine;
        ticker.scheduleAtFixedRate(this::broadcast, STREAM_PERIOD.toMillis(), STREAM_PERIOD.toMillis(),
                TimeUnit.MILLISECONDS);
    }

    @GetMapping("/api/v1/pipeline")
    @Operation(summary = "The buffer table (class x stage), process memory, budget, devices and queues now")
    PipelineSnapshot snapshot() {
        return engine.snapshot();
    }

    @GetMapping(value = "/api/v1/pipeline/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "The same snapshot as server-sent events ('snapshot'), once a second")
    SseEmitter stream() throws IOException {
        SseEmitter emitter = new SseEmitter(0L);
        emitters.add(emitter);
        emitter.onCompletion(() -> emitters.remove(emitter));
        emitter.onTimeout(() -> emitters.remove(emitter));
        emitter.onError(e -> emitters.remove(emitter));
        emitter.send(SseEmitter.event().name("snapshot").data(engine.snapshot(), MediaType.APPLICATION_JSON));
        return emitter;
    }

    private void broadcast() {
        if (emitters.isEmpty()) {
            return;
        }
        PipelineSnapshot snapshot = engine.snapshot();
        for (SseEmitter emitter : emitters) {
            try {
                emitter.send(SseEmitter.event().name("snapshot").data(snapshot, MediaType.APPLICATION_JSON));
            } catch (IOException | IllegalStateException gone) {
                emitters.remove(emitter);
            }
        }
    }

    @PreDestroy
    void close() {
        ticker.shutdownNow();
        emitters.forEach(SseEmitter::complete);
    }
}

package io.proofline.web;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import io.proofline.service.config.SecurityProperties;
import io.proofline.service.Tenant;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.annotation.PreDestroy;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.time.Duration;

@RestController
@Tag(name = "pipeline", description = "the buffer table and memory figures (DESIGN §3)")
class PipelineController {

    /** How often the stream sends a snapshot. */
    static final Duration STREAM_PERIOD = Duration.ofSeconds(1);

    private final ProvingEngine engine;
    private final SnapshotBroadcast streams;

    PipelineController(ProvingEngine engine, SecurityProperties security) {
        this.engine = engine;
        this.streams = new SnapshotBroadcast(engine::snapshot, STREAM_PERIOD, security.streamsPerKey(),
                security.streamTimeout(), "proofline-pipeline-stream");
    }

    @GetMapping("/api/v1/pipeline")
    @Operation(summary = "The buffer table (class x stage), process memory, budget, devices and queues now")
    PipelineSnapshot snapshot() {
        return engine.snapshot();
    }

    @GetMapping(value = "/api/v1/pipeline/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "The same snapshot as server-sent events ('snapshot'), once a second",
            description = "at most proofline.security.streams-per-key streams per key (429 beyond); each ends after "
                    + "proofline.security.stream-timeout")
    SseEmitter stream(Tenant tenant) {
        return streams.subscribe(tenant.principal());
    }

    @PreDestroy
    void close() {
        streams.close();
    }
}

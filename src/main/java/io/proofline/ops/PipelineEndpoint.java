package io.proofline.ops;

import io.proofline.engine.PipelineSnapshot;
import io.proofline.engine.ProvingEngine;
import io.proofline.service.circuits.KeyCache;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.stereotype.Component;

import java.util.List;

/** {@code /actuator/pipeline}: the buffer table and memory figures, and the cached proving keys. */
@Component
@Endpoint(id = "pipeline")
class PipelineEndpoint {

    private final ProvingEngine engine;
    private final KeyCache keys;

    PipelineEndpoint(ProvingEngine engine, KeyCache keys) {
        this.engine = engine;
        this.keys = keys;
    }

    record Pipeline(PipelineSnapshot snapshot, List<KeyCache.CachedKey> cachedKeys) {
    }

    @ReadOperation
    Pipeline pipeline() {
        return new Pipeline(engine.snapshot(), keys.cached());
    }
}

package io.proofline.web.console;

import io.proofline.service.config.SecurityProperties;
import io.proofline.web.SnapshotBroadcast;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

import java.security.Principal;
import java.time.Duration;

/**
 * {@code GET /console/stream}: the snapshot stream of {@code /api/v1/pipeline/stream} (same events, same JSON) for
 * the console's page, under the admin session. The API's stream takes API keys only, and a key must not be put
 * into a web page; this one is reached with the session that loaded the page. Bounded like the API's (per user,
 * with a timeout; a slow page stalls no other): past the cap the page falls back to polling.
 */
@RestController
class ConsoleStream implements AutoCloseable {

    static final Duration PERIOD = Duration.ofSeconds(1);

    private final SnapshotBroadcast streams;

    ConsoleStream(ConsoleBackend backend, SecurityProperties security) {
        this.streams = new SnapshotBroadcast(backend::snapshot, PERIOD, security.streamsPerKey(),
                security.streamTimeout(), "console-stream");
    }

    @GetMapping(value = "/console/stream", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    SseEmitter stream(Principal user) {
        return streams.subscribe(user.getName());
    }

    @Override
    public void close() {
        streams.close();
    }
}

package io.proofline.abuse;

import io.proofline.web.Api;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One API key opening 100 event streams at once: {@code proofline.security.streams-per-key} (4 by default) of them
 * are served and the rest get 429 with a problem; another key's stream and the API keep working; closed streams
 * free their places.
 */
class EventStreamFloodTest extends AbuseService {

    static final int FLOOD = 100;
    static final int CAP = 4;

    /** A raw HTTP/1.1 connection to the stream, so that 100 of them cost 100 sockets and nothing else. */
    final class Stream implements AutoCloseable {
        final Socket socket;
        final BufferedReader in;
        final int status;
        final List<String> headers = new ArrayList<>();

        Stream(String key) throws IOException {
            socket = new Socket("127.0.0.1", port);
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /api/v1/pipeline/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: " + key
                    + "\r\nAccept: text/event-stream\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
            status = Integer.parseInt(in.readLine().split(" ")[1]);
            for (String line; !(line = in.readLine()).isEmpty(); ) {
                headers.add(line.toLowerCase(java.util.Locale.ROOT));
            }
        }

        /** Reads until the next snapshot event's data line. */
        String nextSnapshot() throws IOException {
            boolean named = false;
            for (String line; (line = in.readLine()) != null; ) {
                if (line.equals("event:snapshot")) {
                    named = true;
                } else if (named && line.startsWith("data:")) {
                    return line.substring("data:".length());
                }
            }
            throw new IOException("the stream ended");
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    @Test
    void oneKeysHundredStreamsAreCappedAndNobodyElseNotices() throws Exception {
        List<Stream> flood = new ArrayList<>();
        try {
            for (int i = 0; i < FLOOD; i++) {
                Stream s = new Stream(KEY_A);
                if (s.status == 200) {
                    flood.add(s);
                } else {
                    assertThat(s.status).isEqualTo(429);
                    assertThat(s.headers).anyMatch(h -> h.startsWith("retry-after:"));
                    assertThat(s.headers).anyMatch(h -> h.startsWith("content-type: application/problem+json"));
                    s.close();
                }
            }
            assertThat(flood).as("streams served to the flooding key").hasSize(CAP);
            for (Stream s : flood) {
                assertThat(s.nextSnapshot()).contains("\"budget\"");
            }

            // another key is served, live, while the flood holds its streams open and unread
            try (Stream other = new Stream(KEY_B)) {
                assertThat(other.status).isEqualTo(200);
                assertThat(other.nextSnapshot()).contains("\"budget\"");
                assertThat(other.nextSnapshot()).contains("\"budget\"");
            }
            Api.Response plain = api(KEY_A).get("/api/v1/pipeline");
            assertThat(plain.status()).as("the flooding key's other requests still work").isEqualTo(200);
            assertStillServesAndLeaksNothing();
        } finally {
            for (Stream s : flood) {
                s.close();
            }
        }

        // closed streams free their places once the service notices (at its next write)
        long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        int served = 0;
        List<Stream> again = new ArrayList<>();
        try {
            while (served < CAP && System.nanoTime() < end) {
                Stream s = new Stream(KEY_A);
                if (s.status == 200) {
                    again.add(s);
                    served++;
                } else {
                    s.close();
                    Thread.sleep(200);
                }
            }
            assertThat(served).as("places freed by the closed streams").isEqualTo(CAP);
        } finally {
            for (Stream s : again) {
                s.close();
            }
        }
    }
}

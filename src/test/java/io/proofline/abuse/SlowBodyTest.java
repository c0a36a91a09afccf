package io.proofline.abuse;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * A JSON job whose body drips in (a few bytes every 200 ms) is cut off at {@code body-read-timeout} (2 s here) with a
 * 408 instead of holding a worker thread for as long as the sender likes; then the service still serves.
 */
class SlowBodyTest extends InputAbuseSuite {

    @Test
    void aSlowJsonBodyIsA408AtTheReadTimeout() throws Exception {
        byte[][] drips = new byte[100][];
        Arrays.fill(drips, "    ".getBytes(StandardCharsets.US_ASCII));
        long start = System.nanoTime();
        RawHttp.Answer slow = assertTimeoutPreemptively(QUICK, () -> RawHttp.send(port, "POST /api/v1/jobs HTTP/1.1\r\n"
                + "Host: localhost\r\nX-API-Key: " + KEY + "\r\nContent-Type: application/json\r\nContent-Length: 400",
                drips, 200));
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertThat(slow.status()).as(slow.text()).isEqualTo(408);
        assertThat(slow.text()).contains("the request body was not received within 2000 ms");
        assertThat(seconds).as("cut off near the 2 s limit, not after the whole 20 s drip").isLessThan(10);
        assertServiceStillServes();
    }

    @Test
    void aSlowBodyWithoutAKeyIsAnsweredAndTheConnectionClosedAtOnce() throws Exception {
        byte[][] drips = new byte[100][];
        Arrays.fill(drips, "    ".getBytes(StandardCharsets.US_ASCII));
        long start = System.nanoTime();
        // the 401 is decided before the body is read; what is left of it must not be read (swallowed) at the
        // sender's pace afterwards, which held the worker thread until the whole 20 s drip had arrived
        RawHttp.Answer refused = assertTimeoutPreemptively(QUICK, () -> RawHttp.send(port,
                "POST /api/v1/jobs HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                        + "Content-Length: 400", drips, 200));
        long seconds = (System.nanoTime() - start) / 1_000_000_000L;
        assertThat(refused.status()).as(refused.text()).isEqualTo(401);
        assertThat(seconds).as("answered and closed at once, not after the drip").isLessThan(5);
        assertServiceStillServes();
    }
}

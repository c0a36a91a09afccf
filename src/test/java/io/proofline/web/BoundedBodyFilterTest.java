package io.proofline.web;

import jakarta.servlet.FilterChain;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.mock.web.MockHttpServletRequest;
import org.springframework.mock.web.MockHttpServletResponse;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.core.context.SecurityContextHolder;

import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The body limits: each endpoint's size from the settings (413 naming the setting, at once for a declared length and
 * as the body crosses it otherwise), the read deadline (408), and the upload slots per key (429) and per instance
 * (503), given back when a body's request ends however it ends.
 */
class BoundedBodyFilterTest {

    private static final BodyLimits LIMITS = new BodyLimits(1000, 2000, BodyLimits.verifyBytes(2),
            Duration.ofMinutes(2));

    @AfterEach
    void clear() {
        SecurityContextHolder.clearContext();
    }

    @Test
    void eachEndpointHasItsLimitFromTheSettings() {
        assertThat(LIMITS.of("/api/v1/jobs")).isEqualTo(new BodyLimits.Limit(1000, "proofline.store.max-job-size"));
        assertThat(LIMITS.of("/api/v1/jobs/")).isEqualTo(LIMITS.of("/api/v1/jobs"));
        assertThat(LIMITS.of("/api/v1/circuits").bytes()).isEqualTo(2000);
        assertThat(LIMITS.of("/api/v1/verify")).isEqualTo(new BodyLimits.Limit(64 * 1024 + 3 * 1024,
                "proofline.store.max-public-signals"));
        assertThat(LIMITS.of("/api/v1/jobs/x/anything").bytes()).isEqualTo(BodyLimits.OTHER);
    }

    @Test
    void aDeclaredLengthOverTheLimitIs413AtOnceAndNothingReadsIt() throws Exception {
        BoundedBodyFilter filter = new BoundedBodyFilter(LIMITS, 4, 2, 20_000);
        AtomicBoolean reached = new AtomicBoolean();
        MockHttpServletResponse response = run(filter, request("/api/v1/circuits", new byte[2001], true, "k"),
                (req, res) -> reached.set(true));
        assertThat(response.getStatus()).isEqualTo(413);
        assertThat(response.getContentAsString()).contains("2000 bytes").contains("proofline.store.max-circuit-size");
        assertThat(reached).isFalse();
    }

    @Test
    void aBodyWithoutALengthFailsAsItCrossesTheLimit() throws Exception {
        BoundedBodyFilter filter = new BoundedBodyFilter(LIMITS, 4, 2, 20_000);
        long[] read = new long[1];
        FilterChain reader = (req, res) -> {
            InputStream in = req.getInputStream();
            byte[] buffer = new byte[64];
            for (int n; (n = in.read(buffer)) > 0; ) {
                read[0] += n;
            }
        };
        assertThatThrownBy(() -> run(filter, request("/api/v1/jobs", new byte[5000], false, "k"), reader))
                .isInstanceOf(RequestTooLargeException.class).hasMessageContaining("1000 bytes")
                .hasMessageContaining("max-job-size");
        assertThat(read[0]).isLessThanOrEqualTo(1000);
        // within the limit it is read to its end
        read[0] = 0;
        run(filter, request("/api/v1/jobs", new byte[1000], false, "k"), reader);
        assertThat(read[0]).isEqualTo(1000);
    }

    @Test
    void aBodyPastItsDeadlineIs408() {
        BoundedBodyFilter filter = new BoundedBodyFilter(new BodyLimits(1000, 1000, 1000, Duration.ofMillis(1)),
                4, 2, 20_000);
        assertThatThrownBy(() -> run(filter, request("/api/v1/jobs", new byte[10], false, "k"), (req, res) -> {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
            req.getInputStream().read(new byte[10]);
        })).isInstanceOf(BodyReadTimeoutException.class);
    }

    @Test
    void uploadsBeyondTheKeysShareAre429AndBeyondTheInstances503UntilOneEnds() throws Exception {
        BoundedBodyFilter filter = new BoundedBodyFilter(LIMITS, 3, 2, 20_000);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch holding = new CountDownLatch(3);
        FilterChain hold = (req, res) -> {
            holding.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Future<?> a1 = pool.submit(() -> run(filter, request("/api/v1/jobs", new byte[10], true, "a"), hold));
            Future<?> a2 = pool.submit(() -> run(filter, request("/api/v1/verify", new byte[10], true, "a"), hold));
            Future<?> b1 = pool.submit(() -> run(filter, request("/api/v1/circuits", new byte[10], true, "b"), hold));
            assertThat(holding.await(30, TimeUnit.SECONDS)).isTrue();
            assertThat(filter.uploadsInProgress()).isEqualTo(3);

            MockHttpServletResponse keyFull = run(filter, request("/api/v1/jobs", new byte[10], true, "a"), hold);
            assertThat(keyFull.getStatus()).isEqualTo(429);
            assertThat(keyFull.getHeader("Retry-After")).isEqualTo("1");
            assertThat(keyFull.getContentAsString()).contains("proofline.uploads.concurrent-per-key");
            MockHttpServletResponse instanceFull = run(filter, request("/api/v1/jobs", new byte[10], true, "c"), hold);
            assertThat(instanceFull.getStatus()).isEqualTo(503);
            assertThat(instanceFull.getContentAsString()).contains("proofline.uploads.concurrent");
            // a request without a body takes no slot
            MockHttpServletRequest get = new MockHttpServletRequest("GET", "/api/v1/jobs");
            assertThat(run(filter, get, (req, res) -> { }).getStatus()).isEqualTo(200);

            release.countDown();
            a1.get(30, TimeUnit.SECONDS);
            a2.get(30, TimeUnit.SECONDS);
            b1.get(30, TimeUnit.SECONDS);
            assertThat(filter.uploadsInProgress()).as("every slot given back").isZero();
            assertThat(run(filter, request("/api/v1/jobs", new byte[10], true, "a"), (req, res) -> { }).getStatus())
                    .isEqualTo(200);
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void aFailedReadGivesItsSlotBack() {
        BoundedBodyFilter filter = new BoundedBodyFilter(LIMITS, 1, 1, 20_000);
        assertThatThrownBy(() -> run(filter, request("/api/v1/jobs", new byte[2000], false, "a"),
                (req, res) -> req.getInputStream().readAllBytes())).isInstanceOf(RequestTooLargeException.class);
        assertThat(filter.uploadsInProgress()).isZero();
    }

    private static MockHttpServletRequest request(String path, byte[] body, boolean declared, String key) {
        MockHttpServletRequest request = new MockHttpServletRequest("POST", path) {
            @Override
            public long getContentLengthLong() {
                return declared ? body.length : -1; // chunked: no length
            }

            @Override
            public int getContentLength() {
                return (int) getContentLengthLong();
            }
        };
        request.setContent(body);
        if (!declared) {
            request.addHeader("Transfer-Encoding", "chunked");
        }
        request.setAttribute("key", key);
        return request;
    }

    /** Runs the filter as the holder of the request's key (the API key filter has authenticated it). */
    private static MockHttpServletResponse run(BoundedBodyFilter filter, MockHttpServletRequest request,
                                               FilterChain chain) throws Exception {
        Object key = request.getAttribute("key");
        if (key != null) {
            SecurityContextHolder.getContext().setAuthentication(new UsernamePasswordAuthenticationToken(key, null,
                    AuthorityUtils.createAuthorityList("ROLE_API")));
        }
        MockHttpServletResponse response = new MockHttpServletResponse();
        try {
            filter.doFilter(request, response, chain);
        } finally {
            SecurityContextHolder.clearContext();
        }
        return response;
    }
}

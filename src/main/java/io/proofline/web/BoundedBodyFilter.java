package io.proofline.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;
import java.net.SocketTimeoutException;

/**
 * Bounds every request body on {@code /api/**} before anything reads it: the servlet container parses no body of
 * ours (multipart included: job and circuit uploads are read part by part from this bounded stream by
 * {@link JobSubmissionReader} and {@link io.proofline.web.multipart.CircuitUploadReader}; JSON by the controllers'
 * readers), so this is the one place a body enters. Per request:
 * <ul>
 *   <li>its endpoint's size limit ({@link BodyLimits}): a declared Content-Length over it is refused at once with
 *       413 naming the setting, and a body that grows past it while read (chunked, or a false length) fails with
 *       {@link RequestTooLargeException} (413);</li>
 *   <li>a deadline, {@code proofline.store.body-read-timeout} from the request's start: a read that returns after it
 *       fails with {@link BodyReadTimeoutException} (408), and a read that waits longer than
 *       {@code proofline.uploads.idle-timeout} for a byte fails the same way (the container's upload timeout,
 *       {@link ServerConfiguration}), so a body that trickles or stalls holds its worker thread at most the deadline
 *       plus the idle timeout;</li>
 *   <li>a slot among the bodies read at once ({@link UploadSlots}): past its key's share, 429; past the instance's,
 *       503; both at once and with {@code Retry-After}, so slow uploads can hold only so many threads.</li>
 * </ul>
 * A refused body is not read to its end ({@link RefusedBodyValve}). It runs after the API key is checked: a request
 * without a valid key takes no slot (its body is never read; the chain answers 401).
 */
public final class BoundedBodyFilter extends OncePerRequestFilter {

    private final BodyLimits limits;
    private final UploadSlots slots;
    private final long idleMs;

    /** @param idleMs the container's upload timeout ({@code proofline.uploads.idle-timeout}), named in its 408 */
    public BoundedBodyFilter(BodyLimits limits, int concurrent, int concurrentPerKey, long idleMs) {
        this.limits = limits;
        this.slots = new UploadSlots(concurrent, concurrentPerKey);
        this.idleMs = idleMs;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!hasBody(request)) {
            chain.doFilter(request, response);
            return;
        }
        BodyLimits.Limit limit = limits.of(request.getRequestURI().substring(request.getContextPath().length()));
        if (request.getContentLengthLong() > limit.bytes()) {
            Problems.write(response, HttpStatus.CONTENT_TOO_LARGE, RequestTooLargeException.message(limit), "body");
            return;
        }
        long timeoutMs = limits.readTimeout().toMillis();
        Bounded bounded = new Bounded(request, limit, System.nanoTime() + timeoutMs * 1_000_000L, timeoutMs);
        Authentication auth = SecurityContextHolder.getContext().getAuthentication();
        if (auth == null || !auth.isAuthenticated()) {
            chain.doFilter(bounded, response); // answered 401 without reading the body
            return;
        }
        Object slot = slots.tryAcquire(auth.getName());
        if (slot instanceof UploadSlots.Refusal refusal) {
            response.setHeader("Retry-After", "1");
            if (refusal == UploadSlots.Refusal.KEY_FULL) {
                Problems.write(response, HttpStatus.TOO_MANY_REQUESTS, "this API key has " + slots.perKey()
                        + " uploads in progress (proofline.uploads.concurrent-per-key); retry when one ends", "body");
            } else {
                Problems.write(response, HttpStatus.SERVICE_UNAVAILABLE, "this instance has " + slots.total()
                        + " uploads in progress (proofline.uploads.concurrent); retry when one ends", "body");
            }
            return;
        }
        try (UploadSlots.Slot held = (UploadSlots.Slot) slot) {
            chain.doFilter(bounded, response);
        }
    }

    /** Bodies being read now (for tests and the console's figures). */
    int uploadsInProgress() {
        return slots.inUse();
    }

    /** A request with a body: a length above zero, or a chunked one. */
    static boolean hasBody(HttpServletRequest request) {
        return request.getContentLengthLong() > 0 || request.getHeader("Transfer-Encoding") != null;
    }

    private final class Bounded extends HttpServletRequestWrapper {
        private final BodyLimits.Limit limit;
        private final long deadlineNanos;
        private final long timeoutMs;
        private ServletInputStream stream;

        Bounded(HttpServletRequest request, BodyLimits.Limit limit, long deadlineNanos, long timeoutMs) {
            super(request);
            this.limit = limit;
            this.deadlineNanos = deadlineNanos;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            if (stream == null) {
                stream = new BoundedStream(super.getInputStream());
            }
            return stream;
        }

        @Override
        public java.io.BufferedReader getReader() throws IOException {
            String encoding = getCharacterEncoding();
            return new java.io.BufferedReader(new java.io.InputStreamReader(getInputStream(),
                    encoding == null ? java.nio.charset.StandardCharsets.UTF_8 : java.nio.charset.Charset.forName(encoding)));
        }

        private final class BoundedStream extends ServletInputStream {
            private final ServletInputStream in;
            private long read;

            BoundedStream(ServletInputStream in) {
                this.in = in;
            }

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] buf, int off, int len) throws IOException {
                checkDeadline();
                int n;
                try {
                    n = in.read(buf, off, len);
                } catch (IOException e) {
                    throw timedOut(e) ? BodyReadTimeoutException.idle(idleMs) : e;
                }
                if (n > 0) {
                    read += n;
                    if (read > limit.bytes()) {
                        throw new RequestTooLargeException(limit);
                    }
                    checkDeadline();
                }
                return n;
            }

            private void checkDeadline() throws BodyReadTimeoutException {
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new BodyReadTimeoutException(timeoutMs);
                }
            }

            @Override
            public boolean isFinished() {
                return in.isFinished();
            }

            @Override
            public boolean isReady() {
                return in.isReady();
            }

            @Override
            public void setReadListener(ReadListener listener) {
                in.setReadListener(listener);
            }
        }
    }

    /** A read the container gave up waiting on (its upload timeout), however it wrapped it. */
    private static boolean timedOut(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
        }
        return false;
    }
}

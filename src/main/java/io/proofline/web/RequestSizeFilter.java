package io.proofline.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.Part;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Bounds request bodies on {@code /api/**} by {@code proofline.store.max-job-size} (a JSON job carries base64
 * witnesses, a multipart job {@code .wtns} files): a declared Content-Length over the limit is refused at once with
 * 413, and a JSON body that grows past it while being read fails with {@link RequestTooLargeException} (413) or, still
 * arriving past {@code proofline.store.body-read-timeout}, with {@link BodyReadTimeoutException} (408). The servlet
 * container reads multipart bodies itself, past any wrapper: a multipart job sent without a length (chunked) is
 * measured once parsed (its parts on disk, bounded meanwhile by the multipart settings) and refused with 413 if over.
 * Circuit uploads ({@code /api/v1/circuits}) are multipart bounded by the multipart settings ({@code max-circuit-size}).
 */
final class RequestSizeFilter extends OncePerRequestFilter {

    private static final String CIRCUITS = "/api/v1/circuits";

    private final long limit;
    private final long readTimeoutMs;

    RequestSizeFilter(long limit, long readTimeoutMs) {
        this.limit = limit;
        this.readTimeoutMs = readTimeoutMs;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String type = request.getContentType();
        boolean multipart = type != null && type.toLowerCase().startsWith("multipart/");
        if (multipart && request.getRequestURI().startsWith(CIRCUITS)) {
            chain.doFilter(request, response);
            return;
        }
        if (request.getContentLengthLong() > limit) {
            Problems.write(response, HttpStatus.CONTENT_TOO_LARGE, "the request body is larger than the limit of "
                    + limit + " bytes", "body");
            return;
        }
        if (multipart) {
            if (request.getContentLengthLong() < 0 && partsSize(request) > limit) {
                Problems.write(response, HttpStatus.CONTENT_TOO_LARGE, "the request body is larger than the limit of "
                        + limit + " bytes", "body");
                return;
            }
            chain.doFilter(request, response);
            return;
        }
        chain.doFilter(new Bounded(request, limit, System.nanoTime() + readTimeoutMs * 1_000_000L, readTimeoutMs),
                response);
    }

    /**
     * The bytes of a multipart body sent without a length (chunked), once the container has parsed it: its parts are
     * files on disk by then (bounded by the multipart settings), none of them on the heap.
     */
    private static long partsSize(HttpServletRequest request) throws IOException {
        try {
            long total = 0;
            for (Part part : request.getParts()) {
                total += part.getSize();
            }
            return total;
        } catch (ServletException | IllegalStateException malformed) {
            return 0; // not for this filter to judge: the controller answers it
        }
    }

    private static final class Bounded extends HttpServletRequestWrapper {
        private final long limit;
        private final long deadlineNanos;
        private final long timeoutMs;

        Bounded(HttpServletRequest request, long limit, long deadlineNanos, long timeoutMs) {
            super(request);
            this.limit = limit;
            this.deadlineNanos = deadlineNanos;
            this.timeoutMs = timeoutMs;
        }

        @Override
        public ServletInputStream getInputStream() throws IOException {
            ServletInputStream in = super.getInputStream();
            return new ServletInputStream() {
                private long read;

                @Override
                public int read() throws IOException {
                    int b = in.read();
                    if (b >= 0) {
                        count(1);
                    }
                    return b;
                }

                @Override
                public int read(byte[] buf, int off, int len) throws IOException {
                    int n = in.read(buf, off, len);
                    if (n > 0) {
                        count(n);
                    }
                    return n;
                }

                private void count(int n) throws IOException {
                    read += n;
                    if (read > limit) {
                        throw new RequestTooLargeException(limit);
                    }
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
            };
        }
    }
}

package io.proofline.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpStatus;
import org.springframework.web.filter.OncePerRequestFilter;

import java.io.IOException;

/**
 * Bounds request bodies on {@code /api/**} by {@code proofline.store.max-job-size} (a JSON job carries base64
 * witnesses, a multipart job {@code .wtns} files): a declared Content-Length over the limit is refused at once with
 * 413, and a body that grows past it while being read fails with {@link RequestTooLargeException} (413) or, still
 * arriving past {@code proofline.store.body-read-timeout}, with {@link BodyReadTimeoutException} (408). Job
 * submissions of either kind are read from this bounded stream by {@link JobSubmissionReader} (the container does not
 * parse a job's multipart body), which also holds the total of the decoded parts to the limit. Circuit uploads
 * ({@code /api/v1/circuits}) are multipart parsed by the container, bounded by the multipart settings
 * ({@code max-circuit-size}).
 */
public final class RequestSizeFilter extends OncePerRequestFilter {

    private static final String CIRCUITS = "/api/v1/circuits";

    private final long limit;
    private final long readTimeoutMs;

    public RequestSizeFilter(long limit, long readTimeoutMs) {
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
                    + limit + " bytes (proofline.store.max-job-size)", "body");
            return;
        }
        chain.doFilter(new Bounded(request, limit, System.nanoTime() + readTimeoutMs * 1_000_000L, readTimeoutMs),
                response);
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

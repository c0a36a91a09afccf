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
 * Bounds non-multipart request bodies on {@code /api/**} (a JSON job carries base64 witnesses): a declared
 * Content-Length over the limit is refused at once with 413, and a body that grows past it while being read
 * fails with {@link RequestTooLargeException} (413). Multipart uploads are bounded by the multipart settings.
 */
final class RequestSizeFilter extends OncePerRequestFilter {

    private final long limit;

    RequestSizeFilter(long limit) {
        this.limit = limit;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String type = request.getContentType();
        if (type != null && type.toLowerCase().startsWith("multipart/")) {
            chain.doFilter(request, response);
            return;
        }
        if (request.getContentLengthLong() > limit) {
            Problems.write(response, HttpStatus.CONTENT_TOO_LARGE, "the request body is larger than the limit of "
                    + limit + " bytes", "body");
            return;
        }
        chain.doFilter(new Bounded(request, limit), response);
    }

    private static final class Bounded extends HttpServletRequestWrapper {
        private final long limit;

        Bounded(HttpServletRequest request, long limit) {
            super(request);
            this.limit = limit;
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

                private void count(int n) throws RequestTooLargeException {
                    read += n;
                    if (read > limit) {
                        throw new RequestTooLargeException(limit);
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

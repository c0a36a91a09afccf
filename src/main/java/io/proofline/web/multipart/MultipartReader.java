package io.proofline.web.multipart;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * A {@code multipart/form-data} body read part by part from a stream, each part's content handed on in large pieces
 * as it arrives (never whole on the heap). The delimiter is found by Boyer-Moore-Horspool, which on a witness's
 * random bytes looks at about one byte in the delimiter's length: Tomcat's own parser compared every byte of a 33 MB
 * witness and, with its 4 KiB buffer, made it reach the staged file in as many small writes, together the largest part
 * of the submit call (docs/lab/2026-12-05-submit-path.md). Part headers are bounded ({@link #MAX_HEADER_BYTES}); a
 * body that does not follow RFC 7578 is a {@link MalformedException}.
 */
public final class MultipartReader {

    /** The most bytes of one part's header block. */
    static final int MAX_HEADER_BYTES = 10 * 1024;
    /** The buffer: a part's content reaches its sink in pieces of up to this size. */
    static final int BUFFER_BYTES = 256 * 1024;

    /** A body that is not {@code multipart/form-data} as the request's boundary says it should be. */
    public static final class MalformedException extends IOException {
        MalformedException(String message) {
            super(message);
        }
    }

    private final InputStream in;
    /** CRLF, two dashes, the boundary: what ends a part's content. */
    private final byte[] delimiter;
    private final int[] skip = new int[256];
    private final byte[] buf = new byte[BUFFER_BYTES];
    private int pos;
    private int limit;
    private boolean eof;
    private boolean closed;
    private String name;

    /** {@code contentType}'s boundary, or a {@link MalformedException} when it has none. */
    public static String boundary(String contentType) throws MalformedException {
        if (contentType != null) {
            for (String param : contentType.split(";")) {
                String p = param.strip();
                if (p.regionMatches(true, 0, "boundary=", 0, 9)) {
                    String b = unquote(p.substring(9).strip());
                    if (!b.isEmpty() && b.length() <= 70) {
                        return b;
                    }
                }
            }
        }
        throw new MalformedException("the Content-Type has no boundary of 1 to 70 characters");
    }

    public MultipartReader(InputStream in, String boundary) {
        this.in = in;
        this.delimiter = ("\r\n--" + boundary).getBytes(StandardCharsets.ISO_8859_1);
        int m = delimiter.length;
        Arrays.fill(skip, m);
        for (int j = 0; j < m - 1; j++) {
            skip[delimiter[j] & 0xff] = m - 1 - j;
        }
        // the first delimiter may open the body without the CRLF that precedes every other one
        buf[0] = '\r';
        buf[1] = '\n';
        limit = 2;
    }

    /**
     * Moves to the next part and reads its headers; false after the closing delimiter. The previous part's content
     * must have been read ({@link #transferTo}); the first call skips the preamble.
     */
    public boolean next() throws IOException {
        if (closed) {
            return false;
        }
        if (name == null) {
            // the preamble, if any, is content nobody reads
            transferTo(OutputStream.nullOutputStream());
        }
        fill(2);
        if (buf[pos] == '-' && buf[pos + 1] == '-') {
            closed = true;
            return false;
        }
        if (buf[pos] != '\r' || buf[pos + 1] != '\n') {
            throw new MalformedException("a boundary is followed by neither CRLF nor --");
        }
        pos += 2;
        name = headers();
        return true;
    }

    /** The current part's field name (its Content-Disposition {@code name}); empty when it has none. */
    public String name() {
        return name;
    }

    /** Writes the current part's content to {@code out} up to the next delimiter, which it consumes. */
    public void transferTo(OutputStream out) throws IOException {
        int m = delimiter.length;
        byte last = delimiter[m - 1];
        while (true) {
            int i = pos;
            int end = limit - m;
            while (i <= end) {
                byte c = buf[i + m - 1];
                if (c == last && Arrays.equals(buf, i, i + m - 1, delimiter, 0, m - 1)) {
                    out.write(buf, pos, i - pos);
                    pos = i + m;
                    return;
                }
                i += skip[c & 0xff];
            }
            // no delimiter starts before i; what follows may be one's beginning, so it stays for the next read
            int keep = Math.max(i, limit - (m - 1));
            if (keep > pos) {
                out.write(buf, pos, keep - pos);
                pos = keep;
            }
            if (eof) {
                throw new MalformedException("the body ended before its closing boundary");
            }
            compactAndRead();
        }
    }

    /** The header block of a part, up to its empty line; answers the Content-Disposition name. */
    private String headers() throws IOException {
        String field = "";
        int read = 0;
        while (true) {
            int lineEnd = lineEnd();
            int length = lineEnd - pos;
            read += length + 2;
            if (read > MAX_HEADER_BYTES) {
                throw new MalformedException("a part's headers are longer than " + MAX_HEADER_BYTES + " bytes");
            }
            if (length == 0) {
                pos += 2;
                return field;
            }
            String line = new String(buf, pos, length, StandardCharsets.UTF_8);
            pos = lineEnd + 2;
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).strip().equalsIgnoreCase("Content-Disposition")) {
                field = dispositionName(line.substring(colon + 1));
            }
        }
    }

    /** The index of the CR of the next CRLF at or after pos, reading on as needed (within the header bound). */
    private int lineEnd() throws IOException {
        int from = pos;
        while (true) {
            for (int i = from; i + 1 < limit; i++) {
                if (buf[i] == '\r' && buf[i + 1] == '\n') {
                    return i;
                }
            }
            if (limit - pos > MAX_HEADER_BYTES) {
                throw new MalformedException("a part's headers are longer than " + MAX_HEADER_BYTES + " bytes");
            }
            from = Math.max(pos, limit - 1);
            int shift = pos;
            if (eof) {
                throw new MalformedException("the body ended in a part's headers");
            }
            compactAndRead();
            from -= shift;
        }
    }

    /** Ensures {@code n} bytes at pos. */
    private void fill(int n) throws IOException {
        while (limit - pos < n) {
            if (eof) {
                throw new MalformedException("the body ended before its closing boundary");
            }
            compactAndRead();
        }
    }

    /** Moves the unread bytes to the buffer's start and reads more after them (at least one, or sets eof). */
    private void compactAndRead() throws IOException {
        if (pos > 0) {
            System.arraycopy(buf, pos, buf, 0, limit - pos);
            limit -= pos;
            pos = 0;
        }
        int n = in.read(buf, limit, buf.length - limit);
        if (n < 0) {
            eof = true;
        } else {
            limit += n;
        }
    }

    /** The {@code name} parameter of a Content-Disposition value ({@code form-data; name="x"; filename="y"}). */
    static String dispositionName(String value) {
        int i = 0;
        int n = value.length();
        while (i < n) {
            int semi = i;
            boolean quoted = false;
            while (semi < n && (quoted || value.charAt(semi) != ';')) {
                char c = value.charAt(semi);
                if (c == '\\' && quoted) {
                    semi++;
                } else if (c == '"') {
                    quoted = !quoted;
                }
                semi++;
            }
            String param = value.substring(i, Math.min(semi, n)).strip();
            int eq = param.indexOf('=');
            if (eq > 0 && param.substring(0, eq).strip().toLowerCase(Locale.ROOT).equals("name")) {
                return unquote(param.substring(eq + 1).strip());
            }
            i = semi + 1;
        }
        return "";
    }

    private static String unquote(String s) {
        if (s.length() < 2 || s.charAt(0) != '"' || s.charAt(s.length() - 1) != '"') {
            return s;
        }
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 1; i < s.length() - 1; i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() - 1) {
                c = s.charAt(++i);
            }
            out.append(c);
        }
        return out.toString();
    }
}

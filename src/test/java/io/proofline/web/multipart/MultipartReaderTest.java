package io.proofline.web.multipart;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The job intake's multipart parser against bodies as clients write them: every part's content exactly as sent,
 * whatever the reads' sizes and wherever a delimiter (or a near miss of one) falls against the buffer's edges; a
 * preamble skipped; names quoted, escaped or bare; a body that breaks the format refused, naming why.
 */
class MultipartReaderTest {

    private static final String BOUNDARY = "----bench-7d1f";

    record Part(String name, byte[] content) {
    }

    @Test
    void partsArriveExactlyAsSentWhateverTheReadSizes() throws IOException {
        Random random = new Random(7);
        byte[] large = new byte[3 * MultipartReader.BUFFER_BYTES + 12345];
        random.nextBytes(large);
        // near misses of the delimiter inside the content, one of them across the first buffer's end
        byte[] nearMiss = ("\r\n--" + BOUNDARY.substring(0, BOUNDARY.length() - 1) + "x").getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(nearMiss, 0, large, 1000, nearMiss.length);
        System.arraycopy(nearMiss, 0, large, MultipartReader.BUFFER_BYTES - 300 - 5, nearMiss.length);
        List<Part> sent = List.of(new Part("circuitId", "abc".getBytes(StandardCharsets.UTF_8)),
                new Part("witness", large), new Part("witness", new byte[0]), new Part("witness", new byte[]{'\r', '\n'}),
                new Part("verify", "true".getBytes(StandardCharsets.UTF_8)));
        byte[] body = body("preamble nobody reads\r\n", sent);
        for (int chunk : new int[]{1, 7, 4096, 65536, Integer.MAX_VALUE}) {
            List<Part> got = read(new Trickle(body, chunk));
            assertThat(got).as("reads of %d bytes", chunk).extracting(Part::name)
                    .containsExactlyElementsOf(sent.stream().map(Part::name).toList());
            for (int i = 0; i < sent.size(); i++) {
                assertThat(got.get(i).content()).as("part %d, reads of %d bytes", i, chunk)
                        .isEqualTo(sent.get(i).content());
            }
        }
    }

    @Test
    void theContentDispositionNameIsTakenQuotedEscapedOrBare() {
        assertThat(MultipartReader.dispositionName(" form-data; name=\"witness\"; filename=\"w;1.wtns\""))
                .isEqualTo("witness");
        assertThat(MultipartReader.dispositionName(" form-data; filename=\"a; name=x\"; name=\"circuitId\""))
                .isEqualTo("circuitId");
        assertThat(MultipartReader.dispositionName(" form-data; NAME=verify")).isEqualTo("verify");
        assertThat(MultipartReader.dispositionName(" form-data; name=\"a\\\"b\"")).isEqualTo("a\"b");
        assertThat(MultipartReader.dispositionName(" form-data")).isEmpty();
    }

    @Test
    void theBoundaryIsTakenFromTheContentType() throws IOException {
        assertThat(MultipartReader.boundary("multipart/form-data; boundary=abc")).isEqualTo("abc");
        assertThat(MultipartReader.boundary("multipart/form-data; charset=utf-8; BOUNDARY=\"a b\"")).isEqualTo("a b");
        assertThatThrownBy(() -> MultipartReader.boundary("multipart/form-data"))
                .isInstanceOf(MultipartReader.MalformedException.class).hasMessageContaining("boundary");
        assertThatThrownBy(() -> MultipartReader.boundary("multipart/form-data; boundary=" + "b".repeat(71)))
                .isInstanceOf(MultipartReader.MalformedException.class);
    }

    @Test
    void aBodyThatBreaksTheFormatIsRefusedNamingWhy() {
        assertMalformed("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"w\"\r\n\r\nno closing boundary",
                "ended before its closing boundary");
        assertMalformed("no boundary at all", "ended before its closing boundary");
        assertMalformed("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"w\"", "ended in a part's headers");
        assertMalformed("--" + BOUNDARY + "XY", "neither CRLF nor --");
        assertMalformed("--" + BOUNDARY + "\r\nX-Long: " + "h".repeat(MultipartReader.MAX_HEADER_BYTES) + "\r\n\r\n",
                "headers are longer than");
    }

    private static void assertMalformed(String body, String why) {
        assertThatThrownBy(() -> read(new ByteArrayInputStream(body.getBytes(StandardCharsets.US_ASCII))))
                .isInstanceOf(MultipartReader.MalformedException.class).hasMessageContaining(why);
    }

    private static List<Part> read(InputStream in) throws IOException {
        MultipartReader reader = new MultipartReader(in, BOUNDARY);
        List<Part> parts = new ArrayList<>();
        while (reader.next()) {
            ByteArrayOutputStream content = new ByteArrayOutputStream();
            reader.transferTo(content);
            parts.add(new Part(reader.name(), content.toByteArray()));
        }
        return parts;
    }

    private static byte[] body(String preamble, List<Part> parts) {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        body.writeBytes(preamble.getBytes(StandardCharsets.US_ASCII));
        for (Part p : parts) {
            body.writeBytes(("--" + BOUNDARY + "\r\nContent-Disposition: form-data; name=\"" + p.name()
                    + "\"; filename=\"x\"\r\nContent-Type: application/octet-stream\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            body.writeBytes(p.content());
            body.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        body.writeBytes(("--" + BOUNDARY + "--\r\nepilogue").getBytes(StandardCharsets.US_ASCII));
        return body.toByteArray();
    }

    /** A stream that answers at most {@code chunk} bytes per read, as a socket may. */
    private static final class Trickle extends ByteArrayInputStream {
        private final int chunk;

        Trickle(byte[] bytes, int chunk) {
            super(bytes);
            this.chunk = chunk;
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            return super.read(b, off, Math.min(len, chunk));
        }
    }
}

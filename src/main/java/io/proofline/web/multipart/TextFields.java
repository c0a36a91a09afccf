package io.proofline.web.multipart;

import io.proofline.service.InvalidFieldException;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/** A multipart text field (a name, an id, a flag) read whole, refused past its byte limit without reading on. */
public final class TextFields {

    private TextFields() {
    }

    /** The part's value as UTF-8; {@link InvalidFieldException} (400, naming {@code field}) past {@code maxBytes}. */
    public static String read(MultipartReader part, String field, int maxBytes) throws IOException {
        ByteArrayOutputStream value = new ByteArrayOutputStream() {
            @Override
            public void write(byte[] b, int off, int len) {
                if (count + len > maxBytes) {
                    throw InvalidFieldException.malformed(field, field + " is longer than " + maxBytes + " bytes");
                }
                super.write(b, off, len);
            }
        };
        part.transferTo(value);
        return value.toString(StandardCharsets.UTF_8);
    }
}

package io.proofline.service;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** An uploaded file as a stream (a multipart part, spooled to disk by the server); never a client path. */
@FunctionalInterface
public interface Upload {

    InputStream open() throws IOException;

    /**
     * Puts the upload at {@code target} (a new file) and answers its size; stops once more than {@code limit} bytes
     * have come, answering a size above it. This copy reads the stream; an upload the server already holds as a file
     * moves it instead, so that a key of many gigabytes is not written twice.
     */
    default long moveTo(Path target, long limit) throws IOException {
        byte[] buffer = new byte[1 << 20];
        long total = 0;
        try (InputStream in = open(); OutputStream out = Files.newOutputStream(target)) {
            for (int n; total <= limit && (n = in.read(buffer)) > 0; ) {
                total += n;
                out.write(buffer, 0, n);
            }
        }
        return total;
    }
}

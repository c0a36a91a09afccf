package io.proofline.service;

import java.io.IOException;
import java.io.InputStream;

/** An uploaded file as a stream (a multipart part, spooled to disk by the server); never a client path. */
@FunctionalInterface
public interface Upload {

    InputStream open() throws IOException;
}

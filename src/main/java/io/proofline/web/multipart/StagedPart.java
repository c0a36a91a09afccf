package io.proofline.web.multipart;

import io.proofline.service.Upload;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A part of a circuit registration, read from the request into a file under the data directory's {@code tmp/}
 * ({@link CircuitUploadReader}): moving it into the registration's staging directory is a rename on the same file
 * system, not a second copy of a key that can be gigabytes.
 */
public record StagedPart(Path file) implements Upload {

    @Override
    public InputStream open() throws IOException {
        return Files.newInputStream(file);
    }

    @Override
    public long moveTo(Path target, long limit) throws IOException {
        Files.move(file, target);
        return Files.size(target);
    }
}

package io.proofline.web.multipart;

import io.proofline.service.Upload;
import org.springframework.web.multipart.MultipartFile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A part the servlet container has spooled to a file under the data directory's {@code tmp/}
 * ({@link MultipartConfiguration}): moving it into a registration's staging directory is a rename on the same file
 * system, not a second copy of a key that can be gigabytes.
 */
public record MultipartUpload(MultipartFile part) implements Upload {

    @Override
    public InputStream open() throws IOException {
        return part.getInputStream();
    }

    @Override
    public long moveTo(Path target, long limit) throws IOException {
        // transferTo(File), not transferTo(Path): the container's Part.write renames its spooled file where it can
        part.transferTo(target.toFile());
        return Files.size(target);
    }
}

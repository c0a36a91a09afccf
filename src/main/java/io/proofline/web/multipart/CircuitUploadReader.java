package io.proofline.web.multipart;

import io.proofline.service.InvalidFieldException;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads a circuit registration ({@code multipart/form-data}: {@code zkey}, optional {@code wasm}, {@code r1cs},
 * {@code name}) part by part from the request's own, bounded stream, each file part into a file of a staging
 * directory as it arrives: the servlet container parses no multipart body, so the size limit, the read deadline and
 * the upload slots of the request ({@link io.proofline.web.BoundedBodyFilter}) hold from the first byte.
 */
public final class CircuitUploadReader {

    /** The longest value of the {@code name} field. */
    static final int MAX_NAME_BYTES = 1024;
    /** The most parts: the three files, the name, and a few the client adds (skipped). */
    static final int MAX_PARTS = 16;

    /** The parts read, staged under {@code dir}, which {@link #close} removes with whatever was not moved away. */
    public record CircuitUpload(Path dir, Optional<StagedPart> zkey, Optional<StagedPart> wasm,
                                Optional<StagedPart> r1cs, String name) implements AutoCloseable {
        @Override
        public void close() throws IOException {
            try (Stream<Path> files = Files.walk(dir)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    private CircuitUploadReader() {
    }

    /**
     * Reads the body into {@code dir} (a new, empty staging directory, removed when the upload is closed, and on
     * every failure here). A file part that is empty counts as absent; a file part given twice, too many parts or a
     * body that is not multipart is a 400 naming it.
     */
    public static CircuitUpload read(InputStream body, String contentType, Path dir) throws IOException {
        Path zkey = null;
        Path wasm = null;
        Path r1cs = null;
        String name = null;
        int parts = 0;
        try {
            MultipartReader reader = new MultipartReader(body, MultipartReader.boundary(contentType));
            while (reader.next()) {
                if (++parts > MAX_PARTS) {
                    throw InvalidFieldException.malformed("body", "at most " + MAX_PARTS + " parts per registration");
                }
                String field = reader.name();
                switch (field) {
                    case "zkey" -> zkey = file(reader, dir, field, zkey);
                    case "wasm" -> wasm = file(reader, dir, field, wasm);
                    case "r1cs" -> r1cs = file(reader, dir, field, r1cs);
                    case "name" -> name = TextFields.read(reader, field, MAX_NAME_BYTES);
                    default -> reader.transferTo(OutputStream.nullOutputStream());
                }
            }
        } catch (MultipartReader.MalformedException e) {
            cleanUp(dir, e);
            throw InvalidFieldException.malformed("body", "malformed multipart request: " + e.getMessage());
        } catch (IOException | RuntimeException e) {
            cleanUp(dir, e);
            throw e;
        }
        return new CircuitUpload(dir, nonEmpty(zkey), nonEmpty(wasm), nonEmpty(r1cs), name);
    }

    private static Path file(MultipartReader reader, Path dir, String field, Path already) throws IOException {
        if (already != null) {
            throw InvalidFieldException.malformed(field, field + " is given twice");
        }
        Path file = dir.resolve(field);
        try (OutputStream out = Files.newOutputStream(file)) {
            reader.transferTo(out);
        }
        return file;
    }

    private static Optional<StagedPart> nonEmpty(Path file) throws IOException {
        return file == null || Files.size(file) == 0 ? Optional.empty() : Optional.of(new StagedPart(file));
    }

    private static void cleanUp(Path dir, Exception failure) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }
}

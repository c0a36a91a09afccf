package io.proofline.service.jobs;

import io.proofline.service.DataDirectory;
import io.proofline.service.InvalidFieldException;
import io.proofline.service.TooLargeException;
import io.proofline.engine.PartitionInput;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * One submission's partition inputs on their way in: each is streamed from the request into its own file in a
 * staging directory under {@code data/tmp} (never whole on the heap), its SHA-256 taken as it passes, and the total
 * of all of them held to {@code proofline.store.max-job-size} while they arrive: the part that crosses it is a 413
 * at once. {@link JobService#submit} forces the files of an accepted job to disk (while it checks them) and moves them
 * into the job's directory; closing the upload removes whatever is still staged, so a refused, failed, replayed or
 * cut-off submission leaves no file behind.
 */
public final class JobUpload implements AutoCloseable {

    private final Path dir;
    private final long limit;
    private final List<JobService.NewPartition> staged = new ArrayList<>();
    private final long openedNanos = System.nanoTime();
    private long total;

    JobUpload(Path dir, long limit) {
        this.dir = dir;
        this.limit = limit;
    }

    /** The {@link System#nanoTime()} at which this upload was opened: where the submit call's split begins. */
    public long openedNanos() {
        return openedNanos;
    }

    /** What writes one part's bytes into the stream it is given (a base64 decoder, a JSON writer, a copy). */
    @FunctionalInterface
    public interface Writer {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Stages one part from {@code in}, read to its end. */
    public JobService.NewPartition stage(PartitionInput.Format format, String field, InputStream in)
            throws IOException {
        return stage(format, field, out -> in.transferTo(out));
    }

    /**
     * Stages one part as {@code writer} produces it. Past the job's limit the part's file is removed and the
     * {@link TooLargeException} names the part and the limit; a part past {@link JobService#MAX_PARTITIONS} is a
     * 400 naming it. An {@link IOException} is the writer's (reading the
     * request); a failure to write the staged file is an {@link UncheckedIOException}, the server's fault.
     */
    public JobService.NewPartition stage(PartitionInput.Format format, String field, Writer writer)
            throws IOException {
        if (staged.size() >= JobService.MAX_PARTITIONS) {
            // refused before its file exists: a body of many tiny parts must not become as many files
            throw InvalidFieldException.malformed(field, "at most " + JobService.MAX_PARTITIONS
                    + " partitions per job");
        }
        Path file = dir.resolve(staged.size() + ".part");
        MessageDigest sha = sha256();
        long before = total;
        try (FileOutputStream out = open(file)) {
            writer.writeTo(new OutputStream() {
                @Override
                public void write(int b) {
                    write(new byte[]{(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) {
                    count(field, len);
                    sha.update(b, off, len);
                    try {
                        out.write(b, off, len);
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot write the staged " + field + " to " + file, e);
                    }
                }
            });
        } catch (IOException | RuntimeException | Error e) {
            deleteQuietly(file, e);
            throw e;
        }
        JobService.NewPartition p = new JobService.NewPartition(format, file, total - before,
                HexFormat.of().formatHex(sha.digest()), field);
        staged.add(p);
        return p;
    }

    private static FileOutputStream open(Path file) {
        try {
            return new FileOutputStream(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the staged file " + file, e);
        }
    }

    private static void deleteQuietly(Path file, Throwable cause) {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            cause.addSuppressed(e);
        }
    }

    /** The parts staged so far, in order. */
    public List<JobService.NewPartition> partitions() {
        return List.copyOf(staged);
    }

    /** The bytes staged so far, over all parts. */
    public long bytes() {
        return total;
    }

    private void count(String field, int n) {
        total += n;
        if (total > limit) {
            throw new TooLargeException(field, "the job's inputs are larger than the limit of " + limit
                    + " bytes (proofline.store.max-job-size); " + field + " crossed it");
        }
    }

    /** Removes what is still staged: everything, unless a job took its files. */
    @Override
    public void close() {
        try {
            DataDirectory.deleteTree(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove the staged upload " + dir, e);
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

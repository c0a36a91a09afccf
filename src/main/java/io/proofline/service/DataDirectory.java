package io.proofline.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The layout of the data directory. Every path is made here from server-chosen names (hex ids, UUIDs, indexes):
 * no user-supplied name ever reaches the file system.
 * <pre>
 *   circuits/&lt;sha256&gt;/circuit.zkey, circuit.wasm, circuit.r1cs, verification_key.json
 *   jobs/&lt;job id&gt;/&lt;partition&gt;.wtns | .json
 *   tmp/&lt;tag&gt;.&lt;uuid&gt;   a registration or a job's inputs being staged, a circuit being withdrawn; the tag
 *                    names the instance
 *   db/              the embedded H2 database (when no other is configured)
 * </pre>
 * {@code tmp/} is inside the data directory so that a staged circuit reaches {@code circuits/} with one rename.
 * Instances sharing the directory tag their entries (a hash of the instance name), so that the sweep at start
 * removes what this instance left behind without touching what another instance is staging right now.
 */
public final class DataDirectory {

    private static final Pattern CIRCUIT_ID = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern JOB_ID = Pattern.compile("[0-9a-f-]{36}");

    private static final Pattern TAGGED = Pattern.compile("([0-9a-f]{12})\\..+");
    private final Path root;
    private final String tag;

    public DataDirectory(Path root) {
        this(root, "local");
    }

    /** The data directory at {@code root}, whose temporary entries this instance ({@code instance}) tags. */
    public DataDirectory(Path root, String instance) {
        this.tag = tagOf(instance);
        this.root = root.toAbsolutePath().normalize();
        try {
            Files.createDirectories(this.root.resolve("circuits"));
            Files.createDirectories(this.root.resolve("jobs"));
            Files.createDirectories(this.root.resolve("tmp"));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the data directory " + this.root, e);
        }
    }

    public Path root() {
        return root;
    }

    public static boolean isCircuitId(String id) {
        return id != null && CIRCUIT_ID.matcher(id).matches();
    }

    public static boolean isJobId(String id) {
        return id != null && JOB_ID.matcher(id).matches();
    }

    public Path circuit(String id) {
        if (!isCircuitId(id)) {
            throw new IllegalArgumentException("not a circuit id: " + id);
        }
        return root.resolve("circuits").resolve(id);
    }

    /** The directory holding one directory per registered circuit. */
    public Path circuits() {
        return root.resolve("circuits");
    }

    public Path job(String id) {
        if (!isJobId(id)) {
            throw new IllegalArgumentException("not a job id: " + id);
        }
        return root.resolve("jobs").resolve(id);
    }

    /** Removes a job's input files (once it finished, or when its submission failed). */
    public void deleteJobInputs(String id) {
        Path dir = job(id);
        if (!Files.isDirectory(dir)) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            System.getLogger(DataDirectory.class.getName()).log(System.Logger.Level.WARNING,
                    "cannot delete " + dir + ": " + e.getMessage());
        }
    }

    /**
     * The ids of the job input directories under {@code jobs/} untouched since before {@code cutoff}: candidates for
     * the sweep of directories whose job has no row (a crash between their rename into place and the row's commit).
     */
    public List<String> jobDirectoriesUntouchedSince(Instant cutoff) {
        List<String> ids = new java.util.ArrayList<>();
        try (Stream<Path> list = Files.list(root.resolve("jobs"))) {
            for (Path dir : list.toList()) {
                String id = dir.getFileName().toString();
                try {
                    if (isJobId(id) && lastTouched(dir).isBefore(cutoff)) {
                        ids.add(id);
                    }
                } catch (IOException goneMeanwhile) {
                    // finished and removed while we looked
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + root.resolve("jobs"), e);
        }
        return ids;
    }

    Path newTempFile(String suffix) {
        return tmp().resolve(tag + "." + UUID.randomUUID() + suffix);
    }

    /** A new, empty directory under {@code tmp/} for this instance: where a registration stages its files. */
    public Path newStagingDirectory() throws IOException {
        return newStagingDirectory(".staging");
    }

    /** A new, empty directory under {@code tmp/} for this instance, its name ending in {@code suffix}. */
    public Path newStagingDirectory(String suffix) throws IOException {
        return Files.createDirectory(newTempFile(suffix));
    }

    /**
     * Where entries are staged; also where a registration's parts are read from the request (the web layer's
     * {@code CircuitUploadReader}), so that it takes its zkey into {@code circuits/} by renames alone (one file
     * system).
     */
    public Path tmp() {
        return root.resolve("tmp");
    }

    /**
     * Takes {@code dir} out of its place with one rename (into {@code tmp/}) and deletes it there, so that nobody
     * sees it half deleted under its old name. Nothing to do when it is absent.
     */
    public void withdraw(Path dir) throws IOException {
        Path aside = setAside(dir);
        if (aside != null) {
            deleteTree(aside);
        }
    }

    /**
     * Renames {@code dir} to a new entry of {@code tmp/} in one step; answers where it went, or null when there
     * was nothing to move.
     */
    public Path setAside(Path dir) throws IOException {
        Path aside = newTempFile(".withdrawn");
        try {
            Files.move(dir, aside, StandardCopyOption.ATOMIC_MOVE);
            return aside;
        } catch (NoSuchFileException absent) {
            return null;
        }
    }

    /** Moves a staged directory to {@code target} with one rename: readers see all of it or nothing. */
    public static void publish(Path staged, Path target) throws IOException {
        try {
            Files.move(staged, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the data directory cannot rename " + staged + " to " + target
                    + " in one step: tmp/ and circuits/ must be on one file system", e);
        }
    }

    /**
     * Removes what crashed registrations and job submissions left in {@code tmp/}: this instance's entries (it has
     * just started, so none of them is in use), and any other entry untouched for {@code staleAfter}
     * ({@code proofline.store.stale-tmp-after}: longer than any upload of another instance takes to arrive and be
     * validated); with {@code exclusive} (no other instance can use this directory, e.g. the embedded database holds
     * its lock) every entry.
     *
     * @return the entries removed
     */
    public int sweepTmp(boolean exclusive, Duration staleAfter, Instant now) {
        List<Path> entries;
        try (Stream<Path> list = Files.list(tmp())) {
            entries = list.toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + tmp(), e);
        }
        int removed = 0;
        for (Path entry : entries) {
            var tagged = TAGGED.matcher(entry.getFileName().toString());
            boolean mine = tagged.matches() && tagged.group(1).equals(tag);
            try {
                if (exclusive || mine || lastTouched(entry).isBefore(now.minus(staleAfter))) {
                    deleteTree(entry);
                    removed++;
                }
            } catch (IOException e) {
                System.getLogger(DataDirectory.class.getName()).log(System.Logger.Level.WARNING,
                        "cannot remove " + entry + ": " + e.getMessage());
            }
        }
        return removed;
    }

    /** The latest modification of anything in the tree at {@code path}. */
    private static Instant lastTouched(Path path) throws IOException {
        try (Stream<Path> tree = Files.walk(path)) {
            FileTime latest = FileTime.fromMillis(0);
            for (Path p : tree.toList()) {
                FileTime t = Files.getLastModifiedTime(p);
                if (t.compareTo(latest) > 0) {
                    latest = t;
                }
            }
            return latest.toInstant();
        }
    }

    /** Deletes a file or a directory with everything in it; nothing when absent. */
    public static void deleteTree(Path path) throws IOException {
        if (!Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> tree = Files.walk(path)) {
            for (Path p : tree.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static String tagOf(String instance) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(instance.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(sha, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

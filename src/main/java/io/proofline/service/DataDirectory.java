package io.proofline.service;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The layout of the data directory. Every path is made here from server-chosen names (hex ids, UUIDs, indexes):
 * no user-supplied name ever reaches the file system.
 * <pre>
 *   circuits/&lt;sha256&gt;/circuit.zkey, circuit.wasm, circuit.r1cs, verification_key.json
 *   jobs/&lt;job id&gt;/&lt;partition&gt;.wtns | .json
 *   tmp/             uploads being received
 *   db/              the embedded H2 database (when no other is configured)
 * </pre>
 */
public final class DataDirectory {

    private static final Pattern CIRCUIT_ID = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern JOB_ID = Pattern.compile("[0-9a-f-]{36}");

    private final Path root;

    DataDirectory(Path root) {
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

    static boolean isCircuitId(String id) {
        return id != null && CIRCUIT_ID.matcher(id).matches();
    }

    static boolean isJobId(String id) {
        return id != null && JOB_ID.matcher(id).matches();
    }

    Path circuit(String id) {
        if (!isCircuitId(id)) {
            throw new IllegalArgumentException("not a circuit id: " + id);
        }
        return root.resolve("circuits").resolve(id);
    }

    Path job(String id) {
        if (!isJobId(id)) {
            throw new IllegalArgumentException("not a job id: " + id);
        }
        return root.resolve("jobs").resolve(id);
    }

    /** Removes a job's input files (once it finished, or when its submission failed). */
    void deleteJobInputs(String id) {
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

    Path newTempFile(String suffix) {
        return root.resolve("tmp").resolve(UUID.randomUUID() + suffix);
    }
}

package io.proofline.service.jobs;

import io.proofline.service.DataDirectory;
import io.proofline.service.config.StoreProperties;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * Opens {@link JobUpload}s: a new staging directory under {@code data/tmp} for each submission (inside the data
 * directory, so that an accepted job's inputs reach {@code jobs/} by rename, and tagged with this instance, so that
 * the sweep at start removes what a crash left), bounded by {@code proofline.store.max-job-size}.
 */
@Component
public class JobStaging {

    private final DataDirectory data;
    private final long maxJobSize;

    @Autowired
    JobStaging(DataDirectory data, StoreProperties store) {
        this(data, store.maxJobSize().toBytes());
    }

    private JobStaging(DataDirectory data, long maxJobSize) {
        this.data = data;
        this.maxJobSize = maxJobSize;
    }

    /** Staging in the data directory at {@code dataDir}, for callers without the service's context (tests). */
    public static JobStaging in(Path dataDir, long maxJobSize) {
        return new JobStaging(new DataDirectory(dataDir), maxJobSize);
    }

    /** A new, empty upload; close it when the submission is over, whatever its outcome. */
    public JobUpload open() {
        try {
            return new JobUpload(data.newStagingDirectory(".job"), maxJobSize);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a staging directory in " + data.tmp(), e);
        }
    }

    /** The limit of one job's inputs, in bytes. */
    public long maxJobSize() {
        return maxJobSize;
    }
}

package io.proofline.cli;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.KeyValidation;
import io.proofline.snark.format.PointCheck;
import io.proofline.snark.format.ZkeyReader;
import io.proofline.snark.prover.ProverBackend;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * What a one-shot proof needs before it can start, with the slow parts overlapped instead of in a row: the backend
 * choice (for auto and gpu: opening the CUDA device and loading its kernels) runs on its own thread from the start,
 * and the key's point sections are checked (on their curve, coordinates reduced) on another while the witness is read
 * and the proof runs. The key's header, verifying-key points and coefficients are checked before the key is returned,
 * since the proof's indexing rests on them; a bad point can only make the proof wrong, and
 * {@link #requireKeyChecked()} fails before anything is written.
 *
 * <p>Closing waits for both threads (the check reads the key's mapping, which closing the key unmaps), then closes
 * the backend's device and the key.
 */
final class ProofSetup implements AutoCloseable {

    private final CompletableFuture<BackendChoice> backend;
    private final ProvingKey key;
    private final CompletableFuture<Void> keyCheck;

    private ProofSetup(CompletableFuture<BackendChoice> backend, ProvingKey key, CompletableFuture<Void> keyCheck) {
        this.backend = backend;
        this.key = key;
        this.keyCheck = keyCheck;
    }

    /**
     * Starts choosing the backend of {@code opts} (already checked with {@link BackendChoice#check}), then reads
     * {@code zkey}'s header and starts checking its points. A key that fails its header checks closes what was
     * started and throws.
     */
    static ProofSetup start(Map<String, String> opts, Path zkey) throws IOException {
        CompletableFuture<BackendChoice> backend = onOwnThread("proofline-backend", () -> {
            try {
                return BackendChoice.of(opts);
            } catch (UsageException e) {
                throw new IllegalArgumentException(e.getMessage(), e); // BackendChoice.check passed before
            }
        });
        ProvingKey key;
        try {
            key = ZkeyReader.read(zkey, PointCheck.LATER);
        } catch (IOException | RuntimeException e) {
            try {
                closeWhenChosen(backend);
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        String name = zkey.getFileName().toString();
        CompletableFuture<Void> keyCheck = onOwnThread("proofline-key-check", () -> {
            try {
                ZkeyReader.checkPointSections(key, name, KeyValidation.of(PointCheck.CURVE));
            } catch (FormatException e) {
                throw new UncheckedIOException(e);
            }
            return null;
        });
        return new ProofSetup(backend, key, keyCheck);
    }

    ProvingKey key() {
        return key;
    }

    /** The chosen backend, once chosen; for auto, the line that says which and why goes to {@code err}. */
    ProverBackend backend(PrintStream err) {
        BackendChoice choice = joined(backend);
        choice.note().ifPresent(err::println);
        return choice.backend();
    }

    /** Waits for the key's point check; a bad point is the {@link FormatException} naming the section and index. */
    void requireKeyChecked() throws FormatException {
        try {
            keyCheck.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof UncheckedIOException u && u.getCause() instanceof FormatException f) {
                throw f;
            }
            throw e;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            keyCheck.exceptionally(e -> null).join();
            closeWhenChosen(backend);
        } finally {
            key.close();
        }
    }

    private static void closeWhenChosen(CompletableFuture<BackendChoice> backend) throws Exception {
        BackendChoice choice;
        try {
            choice = backend.join();
        } catch (CompletionException e) {
            return; // nothing was opened
        }
        ProveCommand.closeDevice(choice.backend());
    }

    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** A platform thread of its own, not the common pool, whose threads the key check and the CPU prover use. */
    private static <T> CompletableFuture<T> onOwnThread(String name, Supplier<T> work) {
        CompletableFuture<T> future = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                future.complete(work.get());
            } catch (Throwable t) {
                future.completeExceptionally(t);
            }
        }, name);
        thread.setDaemon(true);
        thread.start();
        return future;
    }
}

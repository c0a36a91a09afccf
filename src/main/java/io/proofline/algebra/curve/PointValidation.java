package io.proofline.algebra.curve;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Validation of a whole array of points in the zkey layout (a proving key's A, B1, B2, C, H sections), done once
 * when a key is loaded: every coordinate reduced, on the curve, in the subgroup (endomorphism check), in parallel.
 */
public final class PointValidation {

    /** Points per task. */
    private static final int CHUNK = 1 << 12;

    /** The first invalid point of an array: its index and why. */
    public record Failure(long index, InvalidPointException.Reason reason) {
    }

    private PointValidation() {
    }

    /** The lowest-index invalid point among {@code count} points from byte {@code offset}, or null if all are valid. */
    public static Failure firstInvalid(CurveGroup g, MemorySegment seg, long offset, long count, ExecutorService executor) {
        if (offset < 0 || offset + count * g.affineBytes() > seg.byteSize()) {
            return new Failure(Math.max(0, (seg.byteSize() - offset) / g.affineBytes()), InvalidPointException.Reason.BAD_LENGTH);
        }
        List<Callable<Failure>> tasks = new ArrayList<>();
        for (long from = 0; from < count; from += CHUNK) {
            long lo = from, hi = Math.min(count, from + CHUNK);
            tasks.add(() -> scan(g, seg, offset, lo, hi));
        }
        try {
            for (Future<Failure> f : executor.invokeAll(tasks)) {   // in index order: the first non-null is the lowest
                Failure failure = f.get();
                if (failure != null) {
                    return failure;
                }
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("point validation interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("point validation failed", e.getCause());
        }
    }

    public static Failure firstInvalid(CurveGroup g, MemorySegment seg, long offset, long count) {
        return firstInvalid(g, seg, offset, count, Msm.defaultExecutor());
    }

    /** Throws {@link InvalidPointException} naming {@code what} and the index of the first invalid point. */
    public static void requireAllValid(CurveGroup g, MemorySegment seg, long offset, long count, String what) {
        Failure failure = firstInvalid(g, seg, offset, count);
        if (failure != null) {
            throw new InvalidPointException(failure.reason(), what + ": point #" + failure.index() + " of " + count + ": "
                    + g.newOps().describe(failure.reason()));
        }
    }

    private static Failure scan(CurveGroup g, MemorySegment seg, long offset, long from, long to) {
        CurveOps ops = g.newOps();
        long[] p = new long[g.affineWidth()];
        for (long i = from; i < to; i++) {
            InvalidPointException.Reason reason = ZkeyPoints.readUnchecked(ops, seg, offset + i * g.affineBytes(), p, 0, true);
            if (reason != null) {
                return new Failure(i, reason);
            }
        }
        return null;
    }
}

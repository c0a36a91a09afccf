package io.proofline.snark.format;

import io.proofline.algebra.curve.CurveGroup;
import io.proofline.algebra.curve.CurveOps;
import io.proofline.algebra.curve.InvalidPointException;
import io.proofline.algebra.curve.SubgroupCheck;
import io.proofline.algebra.curve.SubsetSumSubgroupCheck;
import io.proofline.snark.SegmentLimbs;
import io.proofline.snark.SnarkCurve;

import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks affine points once, when they are loaded: every coordinate reduced below q, every point on its curve and
 * (with {@link PointCheck#SUBGROUP}) in the order-r subgroup, the point at infinity (all zeros) accepted.
 *
 * <p>A point section is cut into chunks that up to {@link KeyValidation#threads()} tasks take in turn. Each point
 * gets the curve equation; the subgroup is tested for the whole section at once by
 * {@link SubsetSumSubgroupCheck} (a few additions per point, sound: see there), except on a group of cofactor 1
 * (BN254 G1), where the curve equation is the whole test. Only when the batched test fails are the points tested
 * one by one ({@link CurveOps#isInSubgroup}, the endomorphism tests) to name the first bad one; single points (the
 * header, IC) always are. The first bad point (lowest index) is reported.
 */
final class PointValidation {

    /** Points per chunk: large enough to amortise taking it, small enough to spread a section and show progress. */
    private static final int CHUNK = 1 << 12;

    private final SnarkCurve curve;
    private final long[] modulus;
    private final boolean subgroup;
    private final KeyValidation options;
    private final SelectionWords words;

    PointValidation(SnarkCurve curve) {
        this(curve, KeyValidation.of(PointCheck.SUBGROUP));
    }

    PointValidation(SnarkCurve curve, KeyValidation options) {
        this.curve = curve;
        this.modulus = curve.fq().modulusLimbs();
        this.subgroup = options.check() == PointCheck.SUBGROUP;
        this.options = options;
        this.words = subgroup ? new SelectionWords(new SecureRandom()) : null;
    }

    /** The problem with the G1 point in {@code p[off..]} (Montgomery limbs), or {@code null} when it is valid. */
    String g1Problem(long[] p, int off) {
        return new Checker(curve.g1()).problem(p, off);
    }

    /** The problem with the G2 point in {@code p[off..]} (Montgomery limbs), or {@code null} when it is valid. */
    String g2Problem(long[] p, int off) {
        return new Checker(curve.g2()).problem(p, off);
    }

    /** The problem with the point at byte {@code off} of {@code seg} (tested on its own), or {@code null}. */
    String problem(MemorySegment seg, long off, boolean g2) {
        return new Checker(g2 ? curve.g2() : curve.g1()).problem(seg, off);
    }

    /** Throws naming {@code what} and the index of the first bad point of a section of {@code count} points. */
    void requireValid(MemorySegment seg, long count, boolean g2, String file, int section, String what)
            throws FormatException {
        CurveGroup group = g2 ? curve.g2() : curve.g1();
        long pointBytes = group.affineBytes();
        boolean batched = subgroup && !(group.subgroupCheck() instanceof SubgroupCheck.CofactorOne);
        AtomicLong checked = new AtomicLong();
        List<long[]> sums = new ArrayList<>();
        long firstBad = scan(seg, count, () -> {
            Checker checker = new Checker(group);
            SubsetSumSubgroupCheck batch = batched ? new SubsetSumSubgroupCheck(group) : null;
            SelectionWords.Stream stream = batched ? words.stream() : null;
            long[] selection = batched ? new long[CHUNK] : null;
            return new ChunkTask() {
                @Override
                public long firstBad(long start, long end) {
                    if (batched) {
                        stream.fill(section, start, (int) (end - start), selection);
                    }
                    for (long i = start; i < end; i++) {
                        if (checker.curveProblem(seg, i * pointBytes, false) != null) {
                            return i;
                        }
                        if (batched) {
                            batch.add(checker.point, 0, selection[(int) (i - start)]);
                        }
                    }
                    options.progress().checked(what, checked.addAndGet(end - start), count);
                    return Long.MAX_VALUE;
                }

                @Override
                public void finish() {
                    if (batched) {
                        long[] s = batch.sums();
                        synchronized (sums) {
                            sums.add(s);
                        }
                    }
                }
            };
        });
        if (firstBad == Long.MAX_VALUE && batched && !sums.isEmpty()) {
            CurveOps ops = group.newOps();
            long[] total = sums.getFirst();
            for (long[] s : sums.subList(1, sums.size())) {
                SubsetSumSubgroupCheck.merge(ops, total, s);
            }
            if (!SubsetSumSubgroupCheck.allInSubgroup(ops, total)) {
                firstBad = scan(seg, count, () -> {
                    Checker checker = new Checker(group);
                    return (start, end) -> {
                        for (long i = start; i < end; i++) {
                            if (checker.problem(seg, i * pointBytes) != null) {
                                return i;
                            }
                        }
                        return Long.MAX_VALUE;
                    };
                });
                if (firstBad == Long.MAX_VALUE) { // the per-point and the batched test disagree: cannot happen
                    throw new FormatException(file, "section " + section + " (" + what + "): a point is not in "
                            + "the prime-order subgroup of " + group.name() + " (batched test)");
                }
            }
        }
        if (firstBad != Long.MAX_VALUE) {
            throw new FormatException(file, "section " + section + " (" + what + "): point " + firstBad + " "
                    + problem(seg, firstBad * pointBytes, g2));
        }
    }

    /** One task's work on the chunks it takes; {@link #finish()} runs on the task's thread after its last chunk. */
    @FunctionalInterface
    private interface ChunkTask {
        /** The index of the first bad point in {@code [start, end)}, or {@code Long.MAX_VALUE}. */
        long firstBad(long start, long end);

        default void finish() {
        }
    }

    /**
     * Runs tasks that take the chunks of {@code [0, count)} in increasing order until none is left or a bad point
     * was found before the next chunk; returns the lowest bad index, or {@code Long.MAX_VALUE}. A segment confined
     * to this thread is scanned by this thread alone.
     */
    private long scan(MemorySegment seg, long count, java.util.function.Supplier<ChunkTask> newTask)
            throws FormatException {
        long chunks = (count + CHUNK - 1) / CHUNK;
        if (chunks == 0) {
            return Long.MAX_VALUE;
        }
        int tasks = SegmentLimbs.isShared(seg) ? (int) Math.min(options.threads(), chunks) : 1;
        AtomicLong next = new AtomicLong();
        AtomicLong firstBad = new AtomicLong(Long.MAX_VALUE);
        Callable<Void> work = () -> {
            ChunkTask task = newTask.get();
            for (long c; (c = next.getAndIncrement()) < chunks; ) {
                if (Thread.interrupted()) { // a task that stopped early must not pass its partial sums as the whole
                    throw new CancellationException("interrupted while checking points");
                }
                long start = c * CHUNK;
                if (start > firstBad.get()) {
                    break;
                }
                long bad = task.firstBad(start, Math.min(count, start + CHUNK));
                if (bad != Long.MAX_VALUE) {
                    firstBad.accumulateAndGet(bad, Math::min);
                }
            }
            task.finish();
            return null;
        };
        if (tasks == 1) {
            try {
                work.call();
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
            return firstBad.get();
        }
        List<Future<Void>> futures = new ArrayList<>(tasks);
        for (int i = 0; i < tasks; i++) {
            futures.add(options.executor().submit(work));
        }
        try {
            for (Future<Void> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            futures.forEach(f -> f.cancel(true));
            Thread.currentThread().interrupt();
            throw new CancellationException("interrupted while checking points");
        } catch (ExecutionException e) {
            futures.forEach(f -> f.cancel(true));
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw new IllegalStateException(e.getCause());
        }
        return firstBad.get();
    }

    /** One thread's checker: the curve arithmetic and a scratch point (the last one read). */
    private final class Checker {
        private final CurveGroup group;
        private final CurveOps ops;
        final long[] point;

        Checker(CurveGroup group) {
            this.group = group;
            this.ops = group.newOps();
            this.point = new long[group.affineWidth()];
        }

        /** The point on its own: reduced, on the curve and (with SUBGROUP) in the subgroup. */
        String problem(MemorySegment seg, long off) {
            return curveProblem(seg, off, subgroup);
        }

        /** Reads the point at {@code off} into {@link #point}; its problem or null. */
        String curveProblem(MemorySegment seg, long off, boolean inSubgroup) {
            int coordinates = point.length / modulus.length;
            for (int k = 0; k < coordinates; k++) {
                if (!SegmentLimbs.lessThan(seg, off + 8L * k * modulus.length, modulus)) {
                    return coordinateName(k) + " coordinate is not reduced (≥ q)";
                }
            }
            SegmentLimbs.read(seg, off, point.length, point, 0);
            return describe(ops.check(point, 0, inSubgroup));
        }

        String problem(long[] p, int off) {
            int coordinates = point.length / modulus.length;
            for (int k = 0; k < coordinates; k++) {
                if (!lessThan(p, off + k * modulus.length)) {
                    return coordinateName(k) + " coordinate is not reduced (≥ q)";
                }
            }
            System.arraycopy(p, off, point, 0, point.length);
            return describe(ops.check(point, 0, subgroup));
        }

        private String describe(InvalidPointException.Reason reason) {
            if (reason == null) {
                return null;
            }
            return switch (reason) {
                case NOT_ON_CURVE -> "is not on the curve of " + group.name();
                case NOT_IN_SUBGROUP -> "is on the curve but not in the prime-order subgroup of " + group.name();
                default -> "is invalid (" + reason + ")";
            };
        }

        private boolean lessThan(long[] p, int off) {
            for (int i = modulus.length - 1; i >= 0; i--) {
                if (p[off + i] != modulus[i]) {
                    return Long.compareUnsigned(p[off + i], modulus[i]) < 0;
                }
            }
            return false;
        }

        private String coordinateName(int k) {
            return group.overFp2() ? new String[] {"x.c0", "x.c1", "y.c0", "y.c1"}[k] : (k == 0 ? "x" : "y");
        }
    }
}

package io.proofline.algebra.poly;

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.RecursiveAction;

/**
 * Splits an index range {@code [0, n)} into chunks of at least {@code grain} indices and runs them on a
 * {@link ForkJoinPool} of one worker per core. Bodies receive whole chunks, so they set up their scratch once per
 * chunk and allocate nothing per element.
 *
 * <p>Not the common pool: its parallelism is cores − 1 (1 on a 2-core machine), and a caller outside the pool only
 * waits.
 */
public final class ParallelRange {

    /** Work on the half-open index range {@code [from, to)}. */
    @FunctionalInterface
    public interface Body {
        void run(long from, long to);
    }

    private static final class Pool {
        static final ForkJoinPool POOL = new ForkJoinPool(Runtime.getRuntime().availableProcessors(), pool -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
            t.setName("field-vector-" + t.getPoolIndex());
            t.setDaemon(true);
            return t;
        }, null, false);
    }

    private ParallelRange() {
    }

    /** Worker count of the pool the loops run on. */
    public static int parallelism() {
        return Pool.POOL.getParallelism();
    }

    /** Runs {@code body} over {@code [0, n)} in parallel; chunks hold at least {@code grain} indices. */
    public static void forEach(long n, long grain, Body body) {
        if (n <= 0) {
            return;
        }
        int parallelism = parallelism();
        // About 4 chunks per worker balances load without drowning small ranges in task overhead.
        long chunk = Math.max(Math.max(1, grain), (n + 4L * parallelism - 1) / (4L * parallelism));
        if (n <= chunk || parallelism <= 1) {
            body.run(0, n);
            return;
        }
        Pool.POOL.invoke(new Split(0, n, chunk, body));
    }

    private static final class Split extends RecursiveAction {
        private final long from;
        private final long to;
        private final long chunk;
        private final Body body;

        Split(long from, long to, long chunk, Body body) {
            this.from = from;
            this.to = to;
            this.chunk = chunk;
            this.body = body;
        }

        @Override
        protected void compute() {
            if (to - from <= chunk) {
                body.run(from, to);
                return;
            }
            long mid = from + ((to - from) / chunk / 2) * chunk;
            if (mid == from) {
                mid = from + chunk;
            }
            invokeAll(new Split(from, mid, chunk, body), new Split(mid, to, chunk, body));
        }
    }
}

package io.proofline.witness;

import io.proofline.witness.graph.WitnessGraph;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A calculator's witness graph and whether to record one: at most one recording run at a time (the other
 * computations meanwhile go to the wasm), none once a graph exists, and none after a failure that another input
 * would not mend (the circuit logs, the graph is too large, the module is not laid out as circom's) or after
 * {@value #ATTEMPTS} failed runs (inputs the circuit rejects). Holds the graph's off-heap block: computations take
 * the graph ({@link #acquire}) and give it back ({@link #release}); {@link #close} frees the block once none holds it.
 */
final class GraphRecording {

    private static final Logger LOG = LoggerFactory.getLogger(CircomWitnessCalculator.class);
    static final int ATTEMPTS = 3;

    private final AtomicBoolean recording = new AtomicBoolean();
    private GraphMemory.Block block;
    private int users;
    private boolean closed;
    private final AtomicBoolean offPathSaid = new AtomicBoolean();
    private volatile WitnessGraph graph;
    private volatile String noGraph;
    private int failures;

    /**
     * @param noGraph why this calculator records no graph, or null where it may
     * @param asked   whether the graph was wanted ({@link CalculatorOptions#graph()}): only then is its absence news
     */
    GraphRecording(String noGraph, boolean asked) {
        this.noGraph = noGraph;
        if (noGraph != null && asked) {
            LOG.info("no witness graph: {}; the wasm computes every witness", noGraph);
        }
    }

    WitnessGraph graph() {
        return graph;
    }

    /** The graph for one computation (then {@link #release}), or null where there is none or it is closed. */
    synchronized WitnessGraph acquire() {
        if (graph == null || closed) {
            return null;
        }
        users++;
        return graph;
    }

    synchronized void release() {
        users--;
        if (closed && users == 0) {
            freeBlock();
        }
    }

    /** No more computations by the graph; its block is freed now, or when the last one running ends. */
    synchronized void close() {
        closed = true;
        if (users == 0) {
            freeBlock();
        }
    }

    private void freeBlock() {
        if (block != null) {
            block.close();
            block = null;
        }
    }

    /** Why there is no graph and will be none, or null. */
    String noGraph() {
        return noGraph;
    }

    /** Whether the caller is to record (then {@link #endRecording} after): no graph yet, may, and none running. */
    boolean startRecording() {
        return graph == null && noGraph == null && recording.compareAndSet(false, true);
    }

    void endRecording() {
        recording.set(false);
    }

    /** The recorded graph, whose program lives in {@code block} (closed here if this calculator is closed already). */
    synchronized void recorded(WitnessGraph recorded, GraphMemory.Block block) {
        if (closed) {
            block.close();
            return;
        }
        this.block = block;
        graph = recorded;
    }

    /**
     * An input the graph does not hold (another path, other signals): the wasm computes it. Said at INFO the first
     * time for this calculator, then at DEBUG.
     */
    void offPath(String why) {
        if (offPathSaid.compareAndSet(false, true)) {
            LOG.info("an input left the recorded witness graph ({}); the wasm computes such inputs' witnesses", why);
        } else {
            LOG.debug("the wasm computes this witness: {}", why);
        }
    }

    /** A recording run failed; {@code forGood}: no input would mend it. */
    synchronized void failed(String why, boolean forGood) {
        failures++;
        if (forGood || failures >= ATTEMPTS) {
            noGraph = forGood ? why : ATTEMPTS + " recording runs failed, the last: " + why;
            LOG.info("no witness graph: {}; the wasm computes every witness", noGraph);
        } else {
            LOG.info("recording the witness graph failed ({}); the next computation tries again", why);
        }
    }
}

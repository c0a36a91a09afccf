package io.proofline.witness.graph;

/**
 * An input signal of a recorded run: its name, and its values' place among the graph's inputs ({@code offset ..
 * offset + size}).
 */
public record InputSignal(String name, int offset, int size) {
}

package io.proofline.witness.graph;

import java.util.Arrays;

/** A growable list of ints without boxing. */
final class IntList {

    private int[] items = new int[64];
    private int size;

    void add(int value) {
        if (size == items.length) {
            items = Arrays.copyOf(items, size * 2);
        }
        items[size++] = value;
    }

    int get(int i) {
        return items[i];
    }

    int removeLast() {
        return items[--size];
    }

    int size() {
        return size;
    }

    int[] toArray() {
        return Arrays.copyOf(items, size);
    }
}

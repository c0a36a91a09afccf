package io.proofline.gpu.internal;

/**
 * The kernels' compile-time tunables (native-cuda/util/config.cuh), read from the loaded module through the
 * {@code proofline_tunables} kernel so that the host never restates them.
 *
 * @param nttMaxLogTile     log2 of the elements an NTT block transforms in shared memory
 * @param elementwiseThreads threads per block of the element-wise kernels
 * @param scanThreads       threads per block of the scan kernels (one element each)
 * @param pointThreads      threads per block of the point kernels
 * @param msmMaxWindowBits  widest Pippenger window the key layout allows
 * @param sortThreads       threads per block of the MSM's radix sort (one per 8-bit digit)
 * @param sortItems         keys each of them ranks: a tile of the sort is sortThreads · sortItems keys
 */
public record Tunables(int nttMaxLogTile, int elementwiseThreads, int scanThreads, int pointThreads,
                       int msmMaxWindowBits, int sortThreads, int sortItems) {

    static final int LAYOUT_VERSION = 2;

    static Tunables fromWords(int[] words) {
        if (words[0] != LAYOUT_VERSION) {
            throw new IllegalStateException("proofline_tunables layout " + words[0] + ", expected " + LAYOUT_VERSION);
        }
        return new Tunables(words[1], words[2], words[3], words[4], words[5], words[6], words[7]);
    }

    /** Keys one block of the MSM's radix sort ranks in shared memory. */
    int sortTile() {
        return sortThreads * sortItems;
    }
}

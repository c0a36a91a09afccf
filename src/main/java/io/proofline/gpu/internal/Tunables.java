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
 */
public record Tunables(int nttMaxLogTile, int elementwiseThreads, int scanThreads, int pointThreads,
                       int msmMaxWindowBits) {

    static final int LAYOUT_VERSION = 1;

    static Tunables fromWords(int[] words) {
        if (words[0] != LAYOUT_VERSION) {
            throw new IllegalStateException("proofline_tunables layout " + words[0] + ", expected " + LAYOUT_VERSION);
        }
        return new Tunables(words[1], words[2], words[3], words[4], words[5]);
    }
}

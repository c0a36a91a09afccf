package io.proofline.algebra.pairing;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Quick timing of the pairing (not a benchmark): thread CPU time, median of 15 runs after 2 s of warm-up runs, for one pairing, a 4-pair
 * product check, the Miller loop and both final exponentiation strategies. Runs without JUnit:
 * {@code java -cp target/classes:target/test-classes io.proofline.algebra.pairing.PairingTimingMain}.
 */
final class PairingTimingMain {

    /** Thread CPU time, not wall time: the shared build machine is oversubscribed, and wall time measures the queue. */
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    public static void main(String[] args) {
        for (PairingFixtures fx : PairingFixtures.values()) {
            System.out.println(measure(fx));
        }
    }

    static String measure(PairingFixtures fx) {
        Pairing pairing = new Pairing(fx.curve);
        int n = fx.curve.fq().limbs(), k = 4;
        long[] g1s = new long[k * 2 * n], g2s = new long[k * 4 * n];
        for (int i = 0; i < k; i++) {
            System.arraycopy(fx.g1Curve().mul(fx.g1, BigInteger.valueOf(1000 + i)), 0, g1s, i * 2 * n, 2 * n);
            System.arraycopy(fx.g2Curve().mul(fx.g2, BigInteger.valueOf(2000 + i)), 0, g2s, i * 4 * n, 4 * n);
        }
        long[] out = new long[pairing.target().width()];
        long[] f = new long[pairing.target().width()];
        pairing.millerLoop(g1s, 0, g2s, 0, 1, f, 0);
        FinalExponentiation fe = pairing.finalExponentiation();

        double single = medianMs(() -> pairing.pair(g1s, 0, g2s, 0, out, 0));
        double product = medianMs(() -> pairing.productIsOne(g1s, g2s, k));
        double miller = medianMs(() -> pairing.millerLoop(g1s, 0, g2s, 0, 1, out, 0));
        double chain = medianMs(() -> fe.apply(f, 0, out, 0, FinalExponentiation.Strategy.CHAIN));
        double exponent = medianMs(() -> fe.apply(f, 0, out, 0, FinalExponentiation.Strategy.EXPONENT));
        return String.format("%s (thread CPU time): pairing %.2f ms, 4-pair product check %.2f ms, Miller loop (1 pair) %.2f ms, "
                + "final exp chain %.2f ms vs exponent %.2f ms", fx, single, product, miller, chain, exponent);
    }

    private static double medianMs(Runnable r) {
        long warmUntil = System.nanoTime() + 2_000_000_000L; // let C2 compile the whole path first
        while (System.nanoTime() < warmUntil) {
            r.run();
        }
        double[] t = new double[15];
        for (int i = 0; i < t.length; i++) {
            long s = CPU.getCurrentThreadCpuTime();
            r.run();
            t[i] = (CPU.getCurrentThreadCpuTime() - s) / 1e6;
        }
        Arrays.sort(t);
        return t[t.length / 2];
    }
}

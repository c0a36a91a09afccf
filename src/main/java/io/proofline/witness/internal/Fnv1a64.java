package io.proofline.witness.internal;

/**
 * The 64-bit FNV-1a hash by which circom's witness calculator addresses input signals
 * ({@code getInputSignalSize(hi, lo)}, {@code setInputSignal(hi, lo, index)}).
 *
 * <p>It hashes UTF-16 code units, not bytes, because {@code fnvHash} in circom's JavaScript XORs in
 * {@code str.charCodeAt(i)}; for the ASCII names circom allows the two agree anyway.
 */
public final class Fnv1a64 {

    private static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;

    private Fnv1a64() {
    }

    public static long hash(CharSequence name) {
        long hash = OFFSET_BASIS;
        for (int i = 0; i < name.length(); i++) {
            hash ^= name.charAt(i);
            hash *= PRIME; // wraps mod 2^64, as the JavaScript's "hash %= 2n ** 64n"
        }
        return hash;
    }

    /** The most significant 32 bits, the first i32 argument of the wasm exports. */
    public static int high(long hash) {
        return (int) (hash >>> 32);
    }

    /** The least significant 32 bits, the second i32 argument. */
    public static int low(long hash) {
        return (int) hash;
    }
}

package io.proofline.snark.format;

import javax.crypto.Cipher;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;

/**
 * The selection words of the batched subgroup test ({@link io.proofline.algebra.curve.SubsetSumSubgroupCheck}): 64
 * bits per point that whoever wrote the key cannot predict. They are AES-128 in counter mode under a key drawn from
 * {@link SecureRandom} when the key file is read (after its points are fixed), with the counter block made of the
 * section id and the point index, so a point's word does not depend on how the section is cut among threads.
 */
final class SelectionWords {

    private final SecretKeySpec key;

    SelectionWords(SecureRandom random) {
        byte[] k = new byte[16];
        random.nextBytes(k);
        this.key = new SecretKeySpec(k, "AES");
    }

    /** One thread's generator (a {@link Cipher} is not thread-safe). */
    Stream stream() {
        try {
            return new Stream(Cipher.getInstance("AES/CTR/NoPadding"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("AES/CTR is part of every JDK", e);
        }
    }

    final class Stream {
        private final Cipher cipher;
        private byte[] zeros = new byte[0];
        private byte[] bytes = new byte[0];

        private Stream(Cipher cipher) {
            this.cipher = cipher;
        }

        /**
         * The words of points {@code first .. first + count - 1} of {@code section} into {@code out[0..count)};
         * {@code first} is even (each AES block gives two words).
         */
        void fill(int section, long first, int count, long[] out) {
            if ((first & 1) != 0) {
                throw new IllegalArgumentException("first point " + first + " is odd");
            }
            int blocks = (count + 1) / 2;
            if (zeros.length < 16 * blocks) {
                zeros = new byte[16 * blocks];
                bytes = new byte[16 * blocks];
            }
            // counter block: section in the top 8 bytes, the block index in the low 8 (never carries: < 2^62)
            ByteBuffer iv = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN).putLong(section).putLong(first / 2);
            try {
                cipher.init(Cipher.ENCRYPT_MODE, key, new IvParameterSpec(iv.array()));
                cipher.doFinal(zeros, 0, 16 * blocks, bytes, 0);
            } catch (GeneralSecurityException e) {
                throw new IllegalStateException(e);
            }
            ByteBuffer words = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < count; i++) {
                out[i] = words.getLong(8 * i);
            }
        }
    }
}

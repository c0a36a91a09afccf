package io.proofline.snark.format;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.SnarkCurve;
import io.proofline.snark.SnarkCurves;
import io.proofline.snark.Witness;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Seeded random corruptions of valid {@code .zkey}, {@code .wtns} and {@code .r1cs} files — flipped bytes,
 * truncations, forged counts and lengths, spliced or dropped sections — must be read either successfully (a
 * harmless change) or rejected with a {@link FormatException}; never another exception, never an
 * {@link OutOfMemoryError} from trusting a forged size. Prints the seed and case of any failure.
 */
class FormatFuzzTest {

    private static final long SEED = 0x5EED_F0F0L;
    private static final int CASES_PER_FILE = 700;

    private interface Reader {
        void read(byte[] bytes) throws FormatException;
    }

    @Test
    void corruptedFilesOnlyEverGiveFormatException() throws Exception {
        long start = System.nanoTime();
        int rejected = 0;
        int cases = 0;
        for (SnarkCurve curve : SnarkCurves.all()) {
            rejected += fuzz(curve, "circuit.zkey", bytes -> {
                try (ProvingKey k = ZkeyReader.parse(MemorySegment.ofArray(bytes), "fuzz.zkey", null)) {
                    k.nVars();
                }
            });
            rejected += fuzz(curve, "witness.wtns", bytes -> {
                try (Witness w = WtnsReader.view(MemorySegment.ofArray(bytes), "fuzz.wtns")) {
                    w.size();
                }
            });
            rejected += fuzz(curve, "circuit.r1cs", bytes -> R1csReader.parse(MemorySegment.ofArray(bytes), "fuzz.r1cs"));
            cases += 3 * CASES_PER_FILE;
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("format fuzz: %d cases, %d rejected, %.1f s%n", cases, rejected, seconds);
        assertTrue(rejected > cases / 2, "most corruptions must be detected, got " + rejected + " of " + cases);
    }

    private static int fuzz(SnarkCurve curve, String name, Reader reader) throws Exception {
        byte[] valid = Files.readAllBytes(SnarkjsFixtures.file(curve, name));
        reader.read(valid); // the baseline must parse
        int rejected = 0;
        for (int i = 0; i < CASES_PER_FILE; i++) {
            long seed = SEED ^ (name.hashCode() * 31L + curve.name().hashCode()) ^ i;
            SplittableRandom rnd = new SplittableRandom(seed);
            List<String> what = new ArrayList<>();
            byte[] corrupt = corrupt(valid, rnd, what);
            try {
                reader.read(corrupt);
            } catch (FormatException expected) {
                rejected++;
            } catch (Throwable t) {
                fail(curve + "/" + name + " case " + i + " (seed " + seed + ", " + what + ") threw " + t, t);
            }
        }
        return rejected;
    }

    /** One to three corruptions chosen at random; {@code what} records them for the failure message. */
    private static byte[] corrupt(byte[] valid, SplittableRandom rnd, List<String> what) {
        byte[] b = valid.clone();
        int n = 1 + rnd.nextInt(3);
        for (int k = 0; k < n; k++) {
            switch (rnd.nextInt(7)) {
                case 0 -> {
                    int pos = rnd.nextInt(b.length);
                    b[pos] ^= (byte) (1 << rnd.nextInt(8));
                    what.add("flip bit at " + pos);
                }
                case 1 -> {
                    int pos = rnd.nextInt(b.length);
                    b[pos] = (byte) rnd.nextInt(256);
                    what.add("byte at " + pos);
                }
                case 2 -> {
                    int len = rnd.nextInt(b.length);
                    b = Arrays.copyOf(b, len);
                    what.add("truncate to " + len);
                    if (len == 0) {
                        return b;
                    }
                }
                case 3 -> {
                    // Forge a u32 at a random 4-aligned offset: counts, ids, sizes' low words.
                    int pos = 4 * rnd.nextInt(Math.max(1, b.length / 4));
                    long v = switch (rnd.nextInt(4)) {
                        case 0 -> 0xffff_ffffL;
                        case 1 -> 0x7fff_ffffL;
                        case 2 -> rnd.nextInt(64);
                        default -> rnd.nextLong(1L << 32);
                    };
                    if (pos + 4 <= b.length) {
                        Container.putU32(b, pos, v);
                        what.add("u32 " + v + " at " + pos);
                    }
                }
                case 4 -> {
                    // Forge a section length (the u64 after the first section's id) or the section count.
                    if (b.length >= 24) {
                        long v = rnd.nextBoolean() ? rnd.nextLong() : rnd.nextLong(1L << 40);
                        java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(16, v);
                        what.add("first section length " + Long.toUnsignedString(v));
                    }
                }
                case 5 -> {
                    int pos = rnd.nextInt(b.length + 1);
                    byte[] extra = new byte[1 + rnd.nextInt(16)];
                    rnd.nextBytes(extra);
                    byte[] c = new byte[b.length + extra.length];
                    System.arraycopy(b, 0, c, 0, pos);
                    System.arraycopy(extra, 0, c, pos, extra.length);
                    System.arraycopy(b, pos, c, pos + extra.length, b.length - pos);
                    b = c;
                    what.add("insert " + extra.length + " at " + pos);
                }
                default -> {
                    if (b.length > 1) {
                        int pos = rnd.nextInt(b.length - 1);
                        int len = 1 + rnd.nextInt(Math.min(64, b.length - pos));
                        byte[] c = new byte[b.length - len];
                        System.arraycopy(b, 0, c, 0, pos);
                        System.arraycopy(b, pos + len, c, pos, b.length - pos - len);
                        b = c;
                        what.add("delete " + len + " at " + pos);
                    }
                }
            }
        }
        return b;
    }
}

package io.proofline.witness;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes a witness as a snarkjs {@code .wtns} file, byte for byte what {@code snarkjs wtns calculate}
 * writes (DESIGN §7):
 * <pre>
 *   "wtns"  u32 version = 2  u32 sections = 2
 *   section 1: u32 type = 1, u64 size = 4 + n8 + 4,  u32 n8, prime (n8 bytes LE), u32 witness count
 *   section 2: u32 type = 2, u64 size = count · n8,  the values (n8 bytes LE each, canonical)
 * </pre>
 */
public final class WtnsWriter {

    private static final byte[] MAGIC = {'w', 't', 'n', 's'};
    private static final int VERSION = 2;
    private static final int SECTION_HEADER = 1;
    private static final int SECTION_VALUES = 2;

    private WtnsWriter() {
    }

    public static void write(Witness witness, OutputStream out) throws IOException {
        int n8 = witness.n8();
        ByteBuffer header = ByteBuffer.allocate(4 + 4 + 4 + (4 + 8 + 4 + n8 + 4) + (4 + 8)).order(ByteOrder.LITTLE_ENDIAN);
        header.put(MAGIC).putInt(VERSION).putInt(2);
        header.putInt(SECTION_HEADER).putLong(4 + n8 + 4).putInt(n8).put(witness.primeLittleEndian()).putInt(witness.size());
        header.putInt(SECTION_VALUES).putLong((long) witness.size() * n8);
        out.write(header.array());
        out.write(witness.littleEndianView());
    }

    public static void write(Witness witness, Path file) {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            write(witness, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file, e);
        }
    }

    public static byte[] toBytes(Witness witness) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 + witness.size() * witness.n8());
        try {
            write(witness, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not throw
        }
        return out.toByteArray();
    }
}

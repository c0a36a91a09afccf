package io.proofline.snark.format;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Writes the iden3 binary container (see {@link BinFile}): header, then each section {@code {u32 id, u64 size,
 * bytes}} in the order they are given. Large sections are written straight from their memory segments in chunks,
 * never copied whole onto the heap.
 */
final class BinFileWriter implements AutoCloseable {

    /** Largest piece handed to the channel at once (ByteBuffer views are limited to 2^31 bytes). */
    private static final long CHUNK = 1L << 30;

    private final FileChannel channel;

    BinFileWriter(Path path, String magic, int version, int sections) throws IOException {
        this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        header.put(magic.getBytes(StandardCharsets.ISO_8859_1)).putInt(version).putInt(sections).flip();
        writeFully(header);
    }

    void section(int id, byte[] body) throws IOException {
        section(id, MemorySegment.ofArray(body));
    }

    /** A section whose body is the concatenation of {@code parts}. */
    void section(int id, MemorySegment... parts) throws IOException {
        long size = 0;
        for (MemorySegment p : parts) {
            size += p.byteSize();
        }
        ByteBuffer head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
        head.putInt(id).putLong(size).flip();
        writeFully(head);
        for (MemorySegment p : parts) {
            for (long off = 0; off < p.byteSize(); off += CHUNK) {
                MemorySegment piece = p.asSlice(off, Math.min(CHUNK, p.byteSize() - off));
                writeFully(piece.asByteBuffer());
            }
        }
    }

    private void writeFully(ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            channel.write(b);
        }
    }

    /** Little-endian scratch for small sections. */
    static ByteBuffer buffer(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** Writes {@code value} as {@code n8} little-endian bytes. */
    static void putBigInt(ByteBuffer b, java.math.BigInteger value, int n8) {
        byte[] be = value.toByteArray();
        for (int i = 0; i < n8; i++) {
            int src = be.length - 1 - i;
            b.put(src >= 0 ? be[src] : 0);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }
}

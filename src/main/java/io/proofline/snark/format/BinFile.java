package io.proofline.snark.format;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.TreeMap;

/**
 * The container shared by {@code .r1cs}, {@code .wtns} and {@code .zkey} (iden3 binfileutils): a 4-byte magic,
 * u32 version, u32 section count, then sections {@code {u32 type, u64 size, bytes}}, all little-endian. Sections are
 * not in id order, so the whole table is scanned first; every size is checked against the bytes that remain before
 * anything trusts it, so a forged length cannot make a reader allocate or read past the file.
 *
 * <p>The bytes are a {@link MemorySegment}: a memory-mapped file (owned by the caller's arena) or any segment
 * already in memory (an upload).
 */
final class BinFile {

    private static final int HEADER_BYTES = 12;
    private static final int SECTION_HEADER_BYTES = 12;

    private final String name;
    private final MemorySegment bytes;
    private final int version;
    private final Map<Integer, MemorySegment> sections;

    private BinFile(String name, MemorySegment bytes, int version, Map<Integer, MemorySegment> sections) {
        this.name = name;
        this.bytes = bytes;
        this.version = version;
        this.sections = sections;
    }

    /** Maps {@code path} read-only into {@code arena} (the mapping lives as long as the arena). */
    static MemorySegment map(Path path, Arena arena) throws IOException {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) {
                return MemorySegment.ofArray(new byte[0]);
            }
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        }
    }

    /**
     * Parses the header and the section table of {@code bytes}.
     *
     * @param name           the file's name for messages
     * @param magic          the expected 4-character magic ({@code "zkey"}, {@code "wtns"}, {@code "r1cs"})
     * @param supportedVersion the only version accepted
     */
    static BinFile parse(String name, MemorySegment bytes, String magic, int supportedVersion) throws FormatException {
        long size = bytes.byteSize();
        if (size < HEADER_BYTES) {
            throw new FormatException(name, "file too short for a " + magic + " header (" + size + " bytes)");
        }
        byte[] m = bytes.asSlice(0, 4).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        if (!magic.equals(new String(m, StandardCharsets.ISO_8859_1))) {
            throw new FormatException(name, "not a ." + magic + " file (magic " + printable(m) + ", expected '" + magic + "')");
        }
        int version = bytes.get(LittleEndian.U32, 4);
        if (version != supportedVersion) {
            throw new FormatException(name, "unsupported ." + magic + " version " + Integer.toUnsignedString(version)
                    + " (expected " + supportedVersion + ")");
        }
        long count = Integer.toUnsignedLong(bytes.get(LittleEndian.U32, 8));
        if (count > (size - HEADER_BYTES) / SECTION_HEADER_BYTES) {
            throw new FormatException(name, "header claims " + count + " sections but the file has room for at most "
                    + (size - HEADER_BYTES) / SECTION_HEADER_BYTES);
        }
        Map<Integer, MemorySegment> sections = new TreeMap<>();
        long pos = HEADER_BYTES;
        for (long i = 0; i < count; i++) {
            if (size - pos < SECTION_HEADER_BYTES) {
                throw new FormatException(name, "section table truncated: entry " + i + " of " + count
                        + " starts at byte " + pos + " of " + size);
            }
            int type = bytes.get(LittleEndian.U32, pos);
            long length = bytes.get(LittleEndian.U64, pos + 4);
            pos += SECTION_HEADER_BYTES;
            if (length < 0 || length > size - pos) {
                throw new FormatException(name, "section " + Integer.toUnsignedString(type) + " claims "
                        + Long.toUnsignedString(length) + " bytes but only " + (size - pos) + " remain");
            }
            if (sections.putIfAbsent(type, bytes.asSlice(pos, length)) != null) {
                throw new FormatException(name, "section " + Integer.toUnsignedString(type) + " appears twice");
            }
            pos += length;
        }
        if (pos != size) {
            throw new FormatException(name, (size - pos) + " unexpected bytes after the last of " + count + " sections");
        }
        return new BinFile(name, bytes, version, sections);
    }

    String name() {
        return name;
    }

    int version() {
        return version;
    }

    MemorySegment bytes() {
        return bytes;
    }

    boolean has(int id) {
        return sections.containsKey(id);
    }

    /** The body of section {@code id}; a missing section is a {@link FormatException} naming it. */
    MemorySegment section(int id, String title) throws FormatException {
        MemorySegment s = sections.get(id);
        if (s == null) {
            throw new FormatException(name, "section " + id + " (" + title + ") is missing");
        }
        return s;
    }

    /** A bounds-checked reader over section {@code id}. */
    SectionCursor cursor(int id, String title) throws FormatException {
        return new SectionCursor(name, id, title, section(id, title));
    }

    private static String printable(byte[] m) {
        StringBuilder sb = new StringBuilder("'");
        for (byte b : m) {
            sb.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b & 0xff));
        }
        return sb.append('\'').toString();
    }
}

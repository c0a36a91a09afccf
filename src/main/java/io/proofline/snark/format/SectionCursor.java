package io.proofline.snark.format;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.math.BigInteger;

/**
 * Sequential, bounds-checked reads from one section. Every read that would run past the section's end, and every
 * count that does not fit what remains, is a {@link FormatException} naming the file, the section and the field.
 */
final class SectionCursor {

    private final String file;
    private final int id;
    private final String title;
    private final MemorySegment body;
    private long pos;

    SectionCursor(String file, int id, String title, MemorySegment body) {
        this.file = file;
        this.id = id;
        this.title = title;
        this.body = body;
    }

    long position() {
        return pos;
    }

    long remaining() {
        return body.byteSize() - pos;
    }

    MemorySegment body() {
        return body;
    }

    /** A problem in this section, as an exception to throw. */
    FormatException problem(String what) {
        return new FormatException(file, "section " + id + " (" + title + "): " + what);
    }

    private void need(long n, String field) throws FormatException {
        if (n > remaining()) {
            throw problem("too short: " + field + " needs " + n + " bytes at offset " + pos + ", only " + remaining()
                    + " left of " + body.byteSize());
        }
    }

    /** An unsigned 32-bit value. */
    long u32(String field) throws FormatException {
        need(4, field);
        long v = Integer.toUnsignedLong(body.get(LittleEndian.U32, pos));
        pos += 4;
        return v;
    }

    /** An unsigned 32-bit count that must fit a Java int (i.e. be below 2^31). */
    int u32Int(String field) throws FormatException {
        long v = u32(field);
        if (v > Integer.MAX_VALUE) {
            throw problem(field + " " + v + " is larger than supported (2^31 − 1)");
        }
        return (int) v;
    }

    /** An unsigned 64-bit value, which must be below 2^63. */
    long u64(String field) throws FormatException {
        need(8, field);
        long v = body.get(LittleEndian.U64, pos);
        pos += 8;
        if (v < 0) {
            throw problem(field + " " + Long.toUnsignedString(v) + " is out of range");
        }
        return v;
    }

    /** A little-endian unsigned integer of {@code n8} bytes. */
    BigInteger bigInt(int n8, String field) throws FormatException {
        need(n8, field);
        byte[] be = new byte[n8 + 1];
        for (int i = 0; i < n8; i++) {
            be[n8 - i] = body.get(ValueLayout.JAVA_BYTE, pos + i);
        }
        pos += n8;
        return new BigInteger(be);
    }

    /** The next {@code n} bytes as a slice (no copy). */
    MemorySegment slice(long n, String field) throws FormatException {
        need(n, field);
        MemorySegment s = body.asSlice(pos, n);
        pos += n;
        return s;
    }

    /** Checks that {@code count} records of {@code recordBytes} each fit what remains, before anything is allocated. */
    void requireRoom(long count, long recordBytes, String what) throws FormatException {
        if (count < 0 || (recordBytes > 0 && count > remaining() / recordBytes)) {
            throw problem(count + " " + what + " of " + recordBytes + " bytes do not fit the " + remaining()
                    + " bytes left");
        }
    }

    /** Requires the cursor to be exactly at the end of the section. */
    void expectEnd() throws FormatException {
        if (remaining() != 0) {
            throw problem(remaining() + " unexpected bytes at the end (section is " + body.byteSize()
                    + " bytes, contents end at " + pos + ")");
        }
    }

    /** Requires the section to be exactly {@code expected} bytes. */
    void expectSize(long expected, String why) throws FormatException {
        if (body.byteSize() != expected) {
            throw problem("size " + body.byteSize() + " bytes disagrees with the header: expected " + expected
                    + " (" + why + ")");
        }
    }
}

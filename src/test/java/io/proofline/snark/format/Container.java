package io.proofline.snark.format;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A test-side, independent view of the iden3 binary container, to take valid files apart and put corrupted ones
 * together: magic, version, then the sections in file order.
 */
final class Container {

    record Section(int id, byte[] body) {
    }

    final byte[] magic;
    int version;
    final List<Section> sections = new ArrayList<>();

    private Container(byte[] magic, int version) {
        this.magic = magic;
        this.version = version;
    }

    static Container parse(byte[] file) {
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = Arrays.copyOf(file, 4);
        b.position(4);
        Container c = new Container(magic, b.getInt());
        int n = b.getInt();
        for (int i = 0; i < n; i++) {
            int id = b.getInt();
            int size = (int) b.getLong();
            byte[] body = new byte[size];
            b.get(body);
            c.sections.add(new Section(id, body));
        }
        return c;
    }

    /** The body of section {@code id} (the live array: edits change the container). */
    byte[] body(int id) {
        return sections.stream().filter(s -> s.id() == id).findFirst().orElseThrow().body();
    }

    void replace(int id, byte[] body) {
        sections.replaceAll(s -> s.id() == id ? new Section(id, body) : s);
    }

    void remove(int id) {
        sections.removeIf(s -> s.id() == id);
    }

    /** Offset of section {@code id}'s body in {@link #bytes()}. */
    int offsetOf(int id) {
        int pos = 12;
        for (Section s : sections) {
            pos += 12;
            if (s.id() == id) {
                return pos;
            }
            pos += s.body().length;
        }
        throw new IllegalArgumentException("no section " + id);
    }

    byte[] bytes() {
        int size = 12 + sections.stream().mapToInt(s -> 12 + s.body().length).sum();
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(magic).putInt(version).putInt(sections.size());
        for (Section s : sections) {
            b.putInt(s.id()).putLong(s.body().length).put(s.body());
        }
        return b.array();
    }

    static void putU32(byte[] body, int off, long v) {
        ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN).putInt(off, (int) v);
    }

    static int getU32(byte[] body, int off) {
        return ByteBuffer.wrap(body).order(ByteOrder.LITTLE_ENDIAN).getInt(off);
    }

    /** Writes {@code v} as {@code n} little-endian bytes at {@code off}. */
    static void putLe(byte[] body, int off, java.math.BigInteger v, int n) {
        byte[] be = v.toByteArray();
        for (int i = 0; i < n; i++) {
            int src = be.length - 1 - i;
            body[off + i] = src >= 0 ? be[src] : 0;
        }
    }
}

package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.ByteArrayMemory;
import com.dylibso.chicory.runtime.Instance;
import com.dylibso.chicory.runtime.Memory;
import com.dylibso.chicory.wasm.types.DataSegment;
import com.dylibso.chicory.wasm.types.MemoryLimits;

/**
 * A module's linear memory held to a byte limit: a declared size beyond it is refused at instantiation and a
 * {@code memory.grow} beyond it stops the computation with a {@link SandboxLimitException} naming the limit (plain
 * wasm would answer -1 and let the module loop on). Everything else is Chicory's {@link ByteArrayMemory}.
 */
public final class CappedMemory implements Memory {

    private final Memory memory;
    private final long maxBytes;

    private CappedMemory(Memory memory, long maxBytes) {
        this.memory = memory;
        this.maxBytes = maxBytes;
    }

    /** A memory of the module's declared {@code limits}, held to {@code maxBytes}. */
    public static Memory of(MemoryLimits limits, long maxBytes) {
        long maxPages = maxBytes / PAGE_SIZE;
        if (limits.initialPages() > maxPages) {
            throw new SandboxLimitException("the module declares " + bytes(limits.initialPages())
                    + " of linear memory, more than the limit of " + maxBytes + " bytes");
        }
        int maximum = (int) Math.min(limits.maximumPages(), maxPages);
        return new CappedMemory(new ByteArrayMemory(new MemoryLimits(limits.initialPages(), maximum, limits.shared())),
                maxBytes);
    }

    private static String bytes(long pages) {
        return pages * PAGE_SIZE + " bytes";
    }

    @Override
    public int grow(int size) {
        if ((long) memory.pages() + Integer.toUnsignedLong(size) > maxBytes / PAGE_SIZE) {
            throw new SandboxLimitException("the module grew its linear memory past the limit of " + maxBytes
                    + " bytes (" + bytes(memory.pages()) + " + " + bytes(Integer.toUnsignedLong(size)) + ")");
        }
        return memory.grow(size);
    }

    @Override
    public int pages() {
        return memory.pages();
    }

    @Override
    public int initialPages() {
        return memory.initialPages();
    }

    @Override
    public int maximumPages() {
        return memory.maximumPages();
    }

    @Override
    public boolean shared() {
        return memory.shared();
    }

    @Override
    public Object lock(int address) {
        return memory.lock(address);
    }

    @Override
    public int waitOn(int address, int expected, long timeout) {
        return memory.waitOn(address, expected, timeout);
    }

    @Override
    public int waitOn(int address, long expected, long timeout) {
        return memory.waitOn(address, expected, timeout);
    }

    @Override
    public int notify(int address, int maxThreads) {
        return memory.notify(address, maxThreads);
    }

    @Override
    public void initialize(Instance instance, DataSegment[] dataSegments) {
        memory.initialize(instance, dataSegments);
    }

    @Override
    public void initialize(Instance instance, DataSegment[] dataSegments, int offset) {
        memory.initialize(instance, dataSegments, offset);
    }

    @Override
    public void initPassiveSegment(int segmentId, int dest, int offset, int size) {
        memory.initPassiveSegment(segmentId, dest, offset, size);
    }

    @Override
    public void write(int addr, byte[] data, int offset, int size) {
        memory.write(addr, data, offset, size);
    }

    @Override
    public byte read(int addr) {
        return memory.read(addr);
    }

    @Override
    public byte[] readBytes(int addr, int len) {
        return memory.readBytes(addr, len);
    }

    @Override
    public void writeI32(int addr, int data) {
        memory.writeI32(addr, data);
    }

    @Override
    public int readInt(int addr) {
        return memory.readInt(addr);
    }

    @Override
    public void writeLong(int addr, long data) {
        memory.writeLong(addr, data);
    }

    @Override
    public long readLong(int addr) {
        return memory.readLong(addr);
    }

    @Override
    public void writeShort(int addr, short data) {
        memory.writeShort(addr, data);
    }

    @Override
    public short readShort(int addr) {
        return memory.readShort(addr);
    }

    @Override
    public long readU16(int addr) {
        return memory.readU16(addr);
    }

    @Override
    public void writeByte(int addr, byte data) {
        memory.writeByte(addr, data);
    }

    @Override
    public void writeF32(int addr, float data) {
        memory.writeF32(addr, data);
    }

    @Override
    public long readF32(int addr) {
        return memory.readF32(addr);
    }

    @Override
    public float readFloat(int addr) {
        return memory.readFloat(addr);
    }

    @Override
    public void writeF64(int addr, double data) {
        memory.writeF64(addr, data);
    }

    @Override
    public double readDouble(int addr) {
        return memory.readDouble(addr);
    }

    @Override
    public long readF64(int addr) {
        return memory.readF64(addr);
    }

    @Override
    public void zero() {
        memory.zero();
    }

    @Override
    public void fill(byte value, int fromIndex, int toIndex) {
        memory.fill(value, fromIndex, toIndex);
    }

    @Override
    public void drop(int segment) {
        memory.drop(segment);
    }

    @Override
    public void copy(int dest, int src, int size) {
        memory.copy(dest, src, size);
    }
}

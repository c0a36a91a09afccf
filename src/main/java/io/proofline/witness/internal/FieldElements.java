package io.proofline.witness.internal;

import com.dylibso.chicory.runtime.Memory;
import io.proofline.algebra.field.PrimeField;

/**
 * circom's field elements in a witness calculator's linear memory, 8 + n8 bytes each: a signed 32-bit "short" value,
 * a 32-bit type word (bit 31: the long form is in use; bit 30: it is in Montgomery form), then n8 bytes of the long
 * form, little-endian. The host writes its results in the long Montgomery form, whose Montgomery factor
 * {@code 2^(8·n8)} is this project's R, so the limbs are {@link PrimeField}'s.
 *
 * <p>A recording run also writes <em>node references</em>: a type word no circom code writes ({@link #NODE}) and a
 * node number, which circom's copies carry along unchanged like any element.
 */
public final class FieldElements {

    private static final int LONG = 0x8000_0000;
    private static final int MONTGOMERY = 0x4000_0000;
    /** The type word of a node reference: a bit circom's types never set. */
    private static final int NODE = 0x1000_0000;
    private static final long NODE_MARK = 0x70726f6f666c696eL; // "proofline" in ASCII, as a check

    private final PrimeField field;
    private final int limbs;
    private final long[] canonical;

    public FieldElements(PrimeField field) {
        this.field = field;
        this.limbs = field.limbs();
        this.canonical = new long[limbs];
    }

    /** Whether the element at {@code address} is a node reference. */
    public static boolean isNode(Memory memory, int address) {
        return (memory.readInt(address + 4) & NODE) != 0 && memory.readLong(address + 16) == NODE_MARK;
    }

    public static int node(Memory memory, int address) {
        return (int) memory.readLong(address + 8);
    }

    public static void writeNode(Memory memory, int address, int node) {
        memory.writeLong(address, (long) NODE << 32);
        memory.writeLong(address + 8, node);
        memory.writeLong(address + 16, NODE_MARK);
    }

    /** Reads the element at {@code address} (any of circom's forms) into Montgomery limbs {@code r[ro..]}. */
    public void read(Memory memory, int address, long[] r, int ro) {
        int type = memory.readInt(address + 4);
        if ((type & LONG) == 0) {
            int shortValue = memory.readInt(address);
            if (shortValue >= 0) {
                java.util.Arrays.fill(canonical, 0L);
                canonical[0] = shortValue;
                field.toMontgomery(canonical, 0, r, ro);
            } else {
                field.fromBigInteger(java.math.BigInteger.valueOf(shortValue), r, ro);
            }
            return;
        }
        for (int i = 0; i < limbs; i++) {
            canonical[i] = memory.readLong(address + 8 + 8 * i);
        }
        if ((type & MONTGOMERY) != 0) {
            System.arraycopy(canonical, 0, r, ro, limbs);
        } else {
            field.toMontgomery(canonical, 0, r, ro);
        }
    }

    /** Writes Montgomery limbs {@code v[vo..]} at {@code address} in circom's long Montgomery form. */
    public void writeMontgomery(Memory memory, int address, long[] v, int vo) {
        memory.writeLong(address, (long) (LONG | MONTGOMERY) << 32);
        for (int i = 0; i < limbs; i++) {
            memory.writeLong(address + 8 + 8 * i, v[vo + i]);
        }
    }

    /** Writes Montgomery limbs {@code v[vo..]} at {@code address} in circom's long normal (canonical) form. */
    public void writeNormal(Memory memory, int address, long[] v, int vo) {
        field.fromMontgomery(v, vo, canonical, 0);
        memory.writeLong(address, (long) LONG << 32);
        for (int i = 0; i < limbs; i++) {
            memory.writeLong(address + 8 + 8 * i, canonical[i]);
        }
    }
}

package io.proofline.snark.format;

import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/** The value layouts of the snarkjs binary formats: little-endian, no alignment (sections start anywhere). */
final class LittleEndian {

    static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private LittleEndian() {
    }
}

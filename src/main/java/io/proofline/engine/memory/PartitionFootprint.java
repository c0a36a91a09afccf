package io.proofline.engine.memory;

import io.proofline.engine.CircuitRef;

/**
 * The bytes one partition holds per buffer class: what the dispatcher reserves before synthesis starts,
 * and the most the partition may allocate per class through its {@link BufferAllocator}.
 *
 * @param witness {@link BufferClass#WITNESS} bytes, held from synthesis to finish
 * @param abc     {@link BufferClass#ABC} bytes, released when prove start returns
 * @param pending {@link BufferClass#PENDING} bytes, held from prove start to finish
 */
public record PartitionFootprint(long witness, long abc, long pending) {

    /** A scalar-field element (BN254 and BLS12-381 {@code Fr} alike): 4 × 64-bit limbs. */
    public static final long SCALAR_BYTES = 32;

    /** The a, b and c evaluation vectors. */
    public static final long ABC_VECTORS = 3;

    /**
     * The pending-proof handle without the witness (which stays counted as WITNESS until finish):
     * four G1 Jacobian MSM results (A, B1, C, H) on BLS12-381, 4 × 3 × 48 B = 576 B, one G2 Jacobian
     * slot for B2, 3 × 96 B = 288 B, and the blinding scalars {@code r, s}, 64 B: 928 B, rounded up to
     * one 4 KiB page.
     */
    public static final long PENDING_FIXED_BYTES = 4 * 1024;

    public PartitionFootprint {
        if (witness < 0 || abc < 0 || pending < 0) {
            throw new IllegalArgumentException("negative footprint: " + witness + "/" + abc + "/" + pending);
        }
    }

    /**
     * The footprint of a Groth16 partition of {@code circuit} (DESIGN §3): WITNESS {@code m × 32} B,
     * ABC {@code 3 × N × 32} B, PENDING {@link #PENDING_FIXED_BYTES}.
     */
    public static PartitionFootprint groth16(CircuitRef circuit) {
        return new PartitionFootprint(
                Math.multiplyExact(circuit.variables(), SCALAR_BYTES),
                Math.multiplyExact(Math.multiplyExact(circuit.domainSize(), SCALAR_BYTES), ABC_VECTORS),
                PENDING_FIXED_BYTES);
    }

    /** What one partition reserves: every class it ever holds at once. */
    public long total() {
        return Math.addExact(Math.addExact(witness, abc), pending);
    }

    /** The bytes of {@code bufferClass} this footprint allows; 0 for classes a partition never owns. */
    public long bytes(BufferClass bufferClass) {
        return switch (bufferClass) {
            case WITNESS -> witness;
            case ABC -> abc;
            case PENDING -> pending;
            case INPUT, KEY_HOST, KEY_DEVICE, SCRATCH_DEVICE, TWIDDLES -> 0;
        };
    }
}

package io.proofline.engine;

import java.util.Objects;

/**
 * One partition's input as uploaded; opaque to the engine, which only counts it as {@link BufferClass#INPUT}
 * until synthesis has parsed it.
 *
 * @param format what the bytes are, for the adapter
 * @param bytes  the upload; the engine neither copies nor changes it
 */
public record PartitionInput(Format format, byte[] bytes) {

    /** What a partition's bytes hold. */
    public enum Format {
        /** A snarkjs/circom {@code .wtns} file. */
        WTNS,
        /** An {@code input.json} for the circuit's witness calculator. */
        INPUT_JSON
    }

    public PartitionInput {
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(bytes, "bytes");
    }

    public static PartitionInput wtns(byte[] bytes) {
        return new PartitionInput(Format.WTNS, bytes);
    }

    public static PartitionInput inputJson(byte[] bytes) {
        return new PartitionInput(Format.INPUT_JSON, bytes);
    }

    public long size() {
        return bytes.length;
    }
}

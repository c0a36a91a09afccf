package io.proofline.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Optional;

/**
 * One partition's input as uploaded; opaque to the engine, which only counts what it holds in memory as
 * {@link io.proofline.engine.memory.BufferClass#INPUT} until synthesis has parsed it. Either the bytes themselves ({@link #wtns(byte[])},
 * {@link #inputJson(byte[])}: tests, the CLI) or a stored upload ({@link #stored}: the service), which is read only
 * when its partition is synthesized, so that a queued job holds none of its inputs on the heap.
 */
public final class PartitionInput {

    /** What a partition's bytes hold. */
    public enum Format {
        /** A snarkjs/circom {@code .wtns} file. */
        WTNS,
        /** An {@code input.json} for the circuit's witness calculator. */
        INPUT_JSON
    }

    private final Format format;
    private final byte[] bytes;
    private final Path file;
    private final long size;

    private PartitionInput(Format format, byte[] bytes, Path file, long size) {
        this.format = Objects.requireNonNull(format, "format");
        this.bytes = bytes;
        this.file = file;
        this.size = size;
    }

    /** An input held in memory; the engine neither copies nor changes {@code bytes}. */
    public PartitionInput(Format format, byte[] bytes) {
        this(format, Objects.requireNonNull(bytes, "bytes"), null, bytes.length);
    }

    public static PartitionInput wtns(byte[] bytes) {
        return new PartitionInput(Format.WTNS, bytes);
    }

    public static PartitionInput inputJson(byte[] bytes) {
        return new PartitionInput(Format.INPUT_JSON, bytes);
    }

    /** An upload stored in {@code file} ({@code size} bytes), read when its partition is synthesized. */
    public static PartitionInput stored(Format format, Path file, long size) {
        Objects.requireNonNull(file, "file");
        if (size < 0) {
            throw new IllegalArgumentException("negative size: " + size);
        }
        return new PartitionInput(format, null, file, size);
    }

    public Format format() {
        return format;
    }

    /** The upload's size in bytes. */
    public long size() {
        return size;
    }

    /** What the input holds in memory until it is parsed: its size in memory, nothing where it is stored. */
    public long heapBytes() {
        return bytes != null ? size : 0;
    }

    /** The stored file, where the input is one. */
    public Optional<Path> file() {
        return Optional.ofNullable(file);
    }

    /** The bytes: the array of an in-memory input, or the stored file read now. */
    public byte[] read() throws IOException {
        return bytes != null ? bytes : Files.readAllBytes(file);
    }

    /** The bytes as a stream: the array of an in-memory input, or the stored file (never read whole). */
    public java.io.InputStream open() throws IOException {
        return bytes != null ? new java.io.ByteArrayInputStream(bytes) : Files.newInputStream(file);
    }

    /** As {@link #read()}, for callers that cannot take an {@link IOException} (tests' fake provers). */
    public byte[] bytes() {
        try {
            return read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The bytes as a segment, copying nothing: the array of an in-memory input, or the stored file mapped read-only
     * into {@code arena} (its pages are the page cache's, released when the arena closes).
     */
    public MemorySegment segment(Arena arena) throws IOException {
        if (bytes != null) {
            return MemorySegment.ofArray(bytes);
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            if (channel.size() != size) {
                throw new IOException(file + " holds " + channel.size() + " bytes, the upload had " + size);
            }
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
        }
    }

    @Override
    public String toString() {
        return format + " input of " + size + " B" + (file != null ? " in " + file : "");
    }
}

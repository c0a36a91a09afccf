package io.proofline.snark.format;

import io.proofline.snark.Witness;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;

/** Writes a {@link Witness} as a {@code .wtns} (version 2), exactly as snarkjs's {@code wtns calculate} does. */
public final class WtnsWriter {

    private WtnsWriter() {
    }

    public static void write(Witness witness, Path path) throws IOException {
        int n8 = witness.curve().fr().bytes();
        try (BinFileWriter out = new BinFileWriter(path, WtnsReader.MAGIC, WtnsReader.VERSION, 2)) {
            ByteBuffer header = BinFileWriter.buffer(4 + n8 + 4);
            header.putInt(n8);
            BinFileWriter.putBigInt(header, witness.curve().fr().modulus(), n8);
            header.putInt(witness.size());
            out.section(WtnsReader.HEADER, header.array());
            out.section(WtnsReader.VALUES, witness.canonical());
        }
    }
}

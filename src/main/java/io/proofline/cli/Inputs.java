package io.proofline.cli;

import io.proofline.snark.format.FormatException;

import java.nio.file.Files;
import java.nio.file.Path;

/** Checks on input file arguments, so a missing file is one line naming it rather than a stack trace. */
final class Inputs {

    private Inputs() {
    }

    static Path existing(String name) throws FormatException {
        Path p = Path.of(name);
        if (!Files.isRegularFile(p)) {
            throw new FormatException(name, Files.exists(p) ? "not a regular file" : "no such file");
        }
        if (!Files.isReadable(p)) {
            throw new FormatException(name, "not readable");
        }
        return p;
    }
}

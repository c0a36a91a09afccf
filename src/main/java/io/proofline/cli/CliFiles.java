package io.proofline.cli;

import io.proofline.snark.format.FormatException;

import java.nio.file.Files;
import java.nio.file.Path;

/** Argument paths of the CLI commands, with a one-line message naming the file when it cannot be read. */
public final class CliFiles {

    private CliFiles() {
    }

    /** {@code arg} as a path to an existing, readable regular file. */
    public static Path existing(String arg) throws FormatException {
        Path p = Path.of(arg);
        if (!Files.isRegularFile(p)) {
            throw new FormatException(arg, "no such file");
        }
        if (!Files.isReadable(p)) {
            throw new FormatException(arg, "not readable");
        }
        return p;
    }
}

package io.proofline.snark.format;

import java.io.IOException;

/**
 * A file that is not a well-formed snarkjs/circom file: the message names the file, the section (where there is
 * one) and what is wrong, e.g. {@code circuit.zkey: section 2 (header): nPublic 9 is not below nVars 5}. It extends
 * {@link IOException} because a malformed input is an input problem like any other; callers that care can catch it
 * first.
 */
public final class FormatException extends IOException {

    private final String file;

    public FormatException(String file, String problem) {
        super(file + ": " + problem);
        this.file = file;
    }

    public FormatException(String file, String problem, Throwable cause) {
        super(file + ": " + problem, cause);
        this.file = file;
    }

    /** The name of the file (as given to the reader) the problem is in. */
    public String file() {
        return file;
    }
}

package io.proofline.cli;

/** Wrong arguments to a CLI command: reported with the command's usage and exit code 2. */
public final class UsageException extends Exception {
    public UsageException(String message) {
        super(message);
    }
}

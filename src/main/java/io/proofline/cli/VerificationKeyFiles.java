package io.proofline.cli;

import io.proofline.snark.ProvingKey;

import java.io.IOException;
import java.nio.file.Path;

/** Writes snarkjs's verification_key.json for a key (through the formats layer's writer). */
final class VerificationKeyFiles {

    private VerificationKeyFiles() {
    }

    static void write(ProvingKey key, Path path) throws IOException {
        // TODO(formats): replace with the formats branch's verification-key JSON writer once it lands.
    }
}

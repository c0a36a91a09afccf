package io.proofline.cli;

import io.proofline.snark.ProvingKey;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.format.ZkeyReader;

import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code export-vkey <circuit.zkey> <verification_key.json>}: the verification key of a Groth16 proving key, the
 * same file {@code snarkjs zkey export verificationkey} writes.
 */
final class ExportVkeyCommand implements Cli.Command {

    @Override
    public String usage() {
        return "export-vkey <circuit.zkey> <verification_key.json>";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length != 2) {
            throw new UsageException("export-vkey takes 2 arguments, got " + args.length);
        }
        VerifyingKey vk;
        try (ProvingKey key = ZkeyReader.read(CliFiles.existing(args[0]))) {
            vk = VerifyingKey.of(key);
        } catch (FormatException e) {
            err.println("export-vkey: " + e.getMessage());
            return 2;
        }
        VerificationKeyJson.write(vk, Path.of(args[1]));
        return 0;
    }
}

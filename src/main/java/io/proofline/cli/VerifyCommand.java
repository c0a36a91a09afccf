package io.proofline.cli;

import io.proofline.snark.Proof;
import io.proofline.snark.VerifyingKey;
import io.proofline.snark.format.FormatException;
import io.proofline.snark.format.ProofJson;
import io.proofline.snark.format.PublicSignalsJson;
import io.proofline.snark.format.VerificationKeyJson;
import io.proofline.snark.verifier.Groth16Verifier;
import io.proofline.snark.verifier.VerificationResult;

import java.io.PrintStream;
import java.math.BigInteger;

/**
 * {@code verify <verification_key.json> <public.json> <proof.json>}: prints {@code OK} and exits 0 for a valid
 * proof, says why and exits 1 for an invalid one; a malformed file exits 2 with one line naming it. A proof without
 * {@code "curve"} (rapidsnark's {@code proof.json}) is read on the key's curve.
 */
final class VerifyCommand implements Cli.Command {

    @Override
    public String usage() {
        return "verify <verification_key.json> <public.json> <proof.json>";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length != 3) {
            throw new UsageException("verify takes 3 arguments, got " + args.length);
        }
        VerifyingKey vk;
        BigInteger[] signals;
        Proof proof;
        try {
            vk = VerificationKeyJson.read(CliFiles.existing(args[0]));
            signals = PublicSignalsJson.read(CliFiles.existing(args[1]));
            proof = ProofJson.read(CliFiles.existing(args[2]), vk.curve());
        } catch (FormatException e) {
            err.println("verify: " + e.getMessage());
            return 2;
        }
        VerificationResult result = Groth16Verifier.verify(vk, signals, proof);
        if (result.valid()) {
            out.println("OK");
            return 0;
        }
        err.println("INVALID: " + result.reason());
        return 1;
    }
}

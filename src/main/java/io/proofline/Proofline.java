package io.proofline;

import io.proofline.cli.Cli;

import java.util.Arrays;

/**
 * Entry point of {@code proofline.jar}. With no argument, or {@code serve}, it starts the Spring Boot
 * service; any other first argument is a CLI command, run without a Spring context (the CLI, the
 * benchmarks and the GPU harness only need the core packages).
 */
public final class Proofline {

    private Proofline() {
    }

    public static void main(String[] args) {
        if (args.length == 0 || args[0].equals("serve")) {
            String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
            ProoflineApplication.start(rest);
            return;
        }
        System.exit(Cli.run(args, System.out, System.err));
    }
}

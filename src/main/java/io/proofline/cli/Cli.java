package io.proofline.cli;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

/**
 * The command-line interface: {@code java -jar proofline.jar <command> ...}. Commands run on the core
 * packages alone; no Spring context is started.
 *
 * <p>Exit codes: 0 success, 1 a negative answer (e.g. an invalid proof), 2 bad usage or malformed input,
 * 3 a required resource (e.g. a GPU) is unavailable.
 */
public final class Cli {

    /** One CLI command. */
    public interface Command {
        String usage();

        int run(String[] args, PrintStream out, PrintStream err) throws Exception;
    }

    private static final Map<String, Command> COMMANDS = new TreeMap<>();

    static {
        RunTimings.touch();
        register("dev-circuit", new DevCircuitCommand());
        register("prove", new ProveCommand());
        register("fullprove", new FullproveCommand());
        register("verify", new VerifyCommand());
        register("export-vkey", new ExportVkeyCommand());
        register("gpu-selftest", new GpuSelfTestCommand());
        register("heap-opts", new HeapOptsCommand());
        register("aot-training", new AotTrainingCommand());
        ServiceLoader.load(CommandSet.class).forEach(set -> set.commands().forEach(Cli::register));
    }

    private static void register(String name, Command command) {
        COMMANDS.put(name, command);
    }

    private Cli() {
    }

    /** Runs a command without the service's entry point (used by the lean device bundle, which has no Spring). */
    public static void main(String[] args) {
        System.exit(args.length == 0 ? usage(System.err) : run(args, System.out, System.err));
    }

    private static int usage(PrintStream err) {
        err.println("usage: <command> [args]. Commands: " + String.join(", ", COMMANDS.keySet()));
        return 2;
    }

    public static int run(String[] args, PrintStream out, PrintStream err) {
        Command command = COMMANDS.get(args[0]);
        if (command == null) {
            err.println("unknown command '" + args[0] + "'. Commands: serve (default), " + String.join(", ", COMMANDS.keySet()));
            for (Command c : COMMANDS.values()) {
                err.println("  " + c.usage());
            }
            return 2;
        }
        try {
            return command.run(Arrays.copyOfRange(args, 1, args.length), out, err);
        } catch (UsageException e) {
            err.println(e.getMessage());
            err.println("usage: " + command.usage());
            return 2;
        } catch (io.proofline.gpu.GpuUnavailableException e) {
            // As gpu-selftest: the reason alone, exit code 3.
            err.println(e.getMessage());
            return 3;
        } catch (Exception e) {
            err.println(args[0] + ": " + e.getMessage());
            return 2;
        }
    }
}

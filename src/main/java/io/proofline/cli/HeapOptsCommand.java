package io.proofline.cli;

import io.proofline.engine.memory.HeapRule;
import io.proofline.engine.memory.MemoryLimit;

import java.io.PrintStream;
import java.util.Map;
import java.util.OptionalLong;

/**
 * {@code heap-opts [--limit SIZE]}: prints the JVM options of {@link HeapRule} for the memory limit (as the service
 * reads it: the cgroup's, narrowed by {@code --limit} where that is smaller, else MemTotal) on one line, for a launcher to put before {@code -jar}. The Docker
 * entrypoint, the README's run command and the Helm chart all size the JVM through it.
 */
final class HeapOptsCommand implements Cli.Command {

    @Override
    public String usage() {
        return "heap-opts [--limit SIZE]   (JVM options for the memory limit; default: the cgroup's, else MemTotal)";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Map<String, String> opts = Options.parse(args, "--limit");
        if (Options.positionalCount(opts) != 0) {
            throw new UsageException("heap-opts takes no arguments");
        }
        OptionalLong given = OptionalLong.empty();
        if (opts.containsKey("--limit")) {
            long bytes = Options.bytes(opts, "--limit", 0);
            if (bytes <= 0) {
                throw new UsageException("--limit must be positive");
            }
            given = OptionalLong.of(bytes);
        }
        // As the service does: a given limit is narrowed by the cgroup's, so the heap always fits the real one.
        out.println(String.join(" ", HeapRule.jvmOptions(MemoryLimit.detect(given).bytes())));
        return 0;
    }
}

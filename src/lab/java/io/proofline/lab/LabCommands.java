package io.proofline.lab;

import io.proofline.cli.Cli;
import io.proofline.cli.CommandSet;
import io.proofline.lab.bench.BenchCommand;
import io.proofline.lab.gpu.GpuBenchCommand;
import io.proofline.lab.pipeline.BaselineServeCommand;

import java.util.Map;

/** The lab's commands, added to the CLI when {@code target/proofline-lab.jar} is on the class path. */
public final class LabCommands implements CommandSet {

    @Override
    public Map<String, Cli.Command> commands() {
        return Map.of("bench", new BenchCommand(), "gpu-bench", new GpuBenchCommand(),
                "serve-baseline", new BaselineServeCommand());
    }
}

package io.proofline.cli;

import java.util.Map;

/**
 * Commands that come from outside the product jar, found with {@link java.util.ServiceLoader}: the lab's benchmarks
 * ({@code target/proofline-lab.jar}, which {@code bin/proofline} puts on the class path for them). The service jar
 * carries none, so its CLI lists only the product's commands.
 */
public interface CommandSet {

    /** The commands by name. */
    Map<String, Cli.Command> commands();
}

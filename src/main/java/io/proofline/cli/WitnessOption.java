package io.proofline.cli;

import io.proofline.snark.setup.WitnessDistribution;

import java.util.Map;

/** {@code --witness uniform|porep}: the witness distribution of the dev circuits a command generates. */
public final class WitnessOption {

    public static final String NAME = "--witness";
    public static final String USAGE = "[--witness uniform|porep]";

    private WitnessOption() {
    }

    /** The distribution {@code opts} names; uniform when absent. */
    public static WitnessDistribution of(Map<String, String> opts) throws UsageException {
        String name = opts.getOrDefault(NAME, WitnessDistribution.UNIFORM.cliName());
        return WitnessDistribution.byCliName(name).orElseThrow(() -> new UsageException(
                NAME + " must be uniform or porep, not '" + name + "'"));
    }
}

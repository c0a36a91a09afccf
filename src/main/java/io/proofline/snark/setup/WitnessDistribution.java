package io.proofline.snark.setup;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The values a synthetic circuit's witness takes, for benchmarks that must not flatter or punish the provers' handling
 * of small scalars (their MSMs skip zeros and add ones directly).
 */
public enum WitnessDistribution {

    /** Values of every size: the free inputs are uniform, each constraint's output a product of sums of them. */
    UNIFORM,

    /**
     * Like a Filecoin PoRep witness, whose SHA-256 and bit decompositions make most values 0 or 1: about nine
     * constraints in ten are bit gates (NOT, AND) over earlier bits, and the others' products often meet a zero, so
     * over 90 % of the values are 0 or 1; the rest are of every size, as in {@link #UNIFORM}.
     */
    POREP;

    /** The lower-case name a command line takes ({@code uniform}, {@code porep}). */
    public String cliName() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Optional<WitnessDistribution> byCliName(String name) {
        return Arrays.stream(values()).filter(d -> d.cliName().equals(name)).findFirst();
    }
}

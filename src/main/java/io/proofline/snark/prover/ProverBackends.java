package io.proofline.snark.prover;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * Finds a {@link ProverBackend} by name: the built-in {@code cpu} one, plus any registered through
 * {@link ServiceLoader} ({@code META-INF/services/io.proofline.snark.prover.ProverBackend}), which is how the GPU
 * backend joins without this package depending on it.
 */
public final class ProverBackends {

    private ProverBackends() {
    }

    public static List<String> names() {
        List<String> names = new ArrayList<>();
        names.add("cpu");
        for (ProverBackend b : ServiceLoader.load(ProverBackend.class)) {
            if (!names.contains(b.name())) {
                names.add(b.name());
            }
        }
        return names;
    }

    public static Optional<ProverBackend> byName(String name) {
        if (name.equals("cpu")) {
            return Optional.of(new CpuProverBackend());
        }
        for (ProverBackend b : ServiceLoader.load(ProverBackend.class)) {
            if (b.name().equals(name)) {
                return Optional.of(b);
            }
        }
        return Optional.empty();
    }
}

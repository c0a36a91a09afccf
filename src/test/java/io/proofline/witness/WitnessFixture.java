package io.proofline.witness;

import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * One case under {@code src/test/resources/witness/<name>-<prime>/} (see the README there): the circuit's
 * {@code circuit.wasm}, its {@code input.json}, and snarkjs's {@code witness.json} and {@code witness.wtns}.
 */
record WitnessFixture(String name, Path dir) {

    static Stream<WitnessFixture> all() {
        try (Stream<Path> dirs = Files.list(root())) {
            return dirs.filter(Files::isDirectory).sorted()
                    .map(dir -> new WitnessFixture(dir.getFileName().toString(), dir)).toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static WitnessFixture named(String name) {
        return new WitnessFixture(name, root().resolve(name));
    }

    private static Path root() {
        try {
            return Path.of(WitnessFixture.class.getResource("/witness").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    byte[] wasm() {
        return read("circuit.wasm");
    }

    Path input() {
        return dir.resolve("input.json");
    }

    Path file(String name) {
        return dir.resolve(name);
    }

    byte[] wtns() {
        return read("witness.wtns");
    }

    /** snarkjs's {@code wtns export json}: decimal strings. */
    List<BigInteger> expectedWitness() {
        String[] values = JsonMapper.shared().readValue(read("witness.json"), String[].class);
        return Stream.of(values).map(BigInteger::new).toList();
    }

    private byte[] read(String file) {
        try {
            return Files.readAllBytes(dir.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name;
    }
}

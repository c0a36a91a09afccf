package io.proofline.service;

import io.proofline.service.circuits.CircuitService;
import io.proofline.service.config.EngineConfiguration;
import io.proofline.service.config.StoreProperties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.mock.env.MockEnvironment;
import org.springframework.util.unit.DataSize;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The sweep of {@code data/tmp} at start: what this instance left is removed at once, another instance's entries
 * (sharing the directory) only once stale, and with an embedded database (no other instance possible) everything.
 */
class DataDirectoryTest {

    /** Not the default hour: the sweep takes the wait it is given. */
    private static final Duration STALE_AFTER = Duration.ofMinutes(10);

    @TempDir
    Path dir;

    /** A staging directory with a file, as a registration that crashed leaves it. */
    static Path stagedBy(DataDirectory data) throws IOException {
        Path staging = data.newStagingDirectory();
        Files.write(staging.resolve(CircuitService.ZKEY), new byte[]{1, 2, 3});
        return staging;
    }

    static void touch(Path tree, Instant when) throws IOException {
        try (Stream<Path> all = Files.walk(tree)) {
            for (Path p : all.toList()) {
                Files.setLastModifiedTime(p, FileTime.from(when));
            }
        }
    }

    @Test
    void theSweepAtStartTakesThisInstancesLeftoversAndOthersOnlyOnceStale() throws IOException {
        Instant now = Instant.now();
        Path mine = stagedBy(new DataDirectory(dir, "instance-a"));
        Path othersFresh = stagedBy(new DataDirectory(dir, "instance-b"));
        Path othersStale = stagedBy(new DataDirectory(dir, "instance-b"));
        touch(othersStale, now.minus(STALE_AFTER).minus(Duration.ofMinutes(1)));
        Path legacyStale = Files.write(dir.resolve("tmp").resolve("0b6f1a3c-1111-2222-3333-444455556666.zkey"),
                new byte[]{4});
        touch(legacyStale, now.minus(Duration.ofDays(1)));
        Path legacyFresh = Files.write(dir.resolve("tmp").resolve("9c1e2d3f-1111-2222-3333-444455556666.wasm"),
                new byte[]{5});

        DataDirectory restarted = new DataDirectory(dir, "instance-a");
        assertThat(restarted.sweepTmp(false, STALE_AFTER, now)).isEqualTo(3);
        assertThat(mine).doesNotExist();
        assertThat(othersStale).doesNotExist();
        assertThat(legacyStale).doesNotExist();
        assertThat(othersFresh).as("another instance may be staging it now").isDirectory();
        assertThat(legacyFresh).exists();

        assertThat(restarted.sweepTmp(true, STALE_AFTER, now)).as("exclusive: nobody else can be using it").isEqualTo(2);
        try (Stream<Path> left = Files.list(restarted.tmp())) {
            assertThat(left.toList()).isEmpty();
        }
    }

    @Test
    void theServicesDataDirectoryIsSweptWhenItIsCreated() throws IOException {
        Path crashed = stagedBy(new DataDirectory(dir, "host-1"));
        Path other = stagedBy(new DataDirectory(dir, "host-2"));
        var store = JobsDatabase.storeProperties(dir, 3);
        new EngineConfiguration().dataDirectory(store, new InstanceName("host-1"),
                new MockEnvironment().withProperty("spring.datasource.url", "jdbc:postgresql://db/proofline"));
        assertThat(crashed).doesNotExist();
        assertThat(other).isDirectory();
        new EngineConfiguration().dataDirectory(store, new InstanceName("host-3"),
                new MockEnvironment().withProperty("spring.datasource.url", "jdbc:h2:file:" + dir + "/db/proofline"));
        assertThat(other).doesNotExist();
    }

    @Test
    void theWaitForAnotherInstancesLeftoversIsTheSetting() throws IOException {
        Instant now = Instant.now();
        Path recent = stagedBy(new DataDirectory(dir, "host-2"));
        touch(recent, now.minus(Duration.ofMinutes(4)));
        Path older = stagedBy(new DataDirectory(dir, "host-2"));
        touch(older, now.minus(Duration.ofMinutes(6)));
        StoreProperties fiveMinutes = new StoreProperties(dir, Duration.ofDays(7), DataSize.ofGigabytes(2),
                DataSize.ofMegabytes(256), Duration.ofSeconds(5), 6, Duration.ofSeconds(1), null, 3,
                Duration.ofMinutes(2), 10_000, Duration.ofMinutes(5));
        new EngineConfiguration().dataDirectory(fiveMinutes, new InstanceName("host-1"),
                new MockEnvironment().withProperty("spring.datasource.url", "jdbc:postgresql://db/proofline"));
        assertThat(older).as("untouched for longer than proofline.store.stale-tmp-after").doesNotExist();
        assertThat(recent).isDirectory();

        assertThatThrownBy(() -> new StoreProperties(dir, Duration.ofDays(7), DataSize.ofGigabytes(2),
                DataSize.ofMegabytes(256), Duration.ofSeconds(5), 6, Duration.ofSeconds(1), null, 3,
                Duration.ofMinutes(2), 10_000, Duration.ZERO)).hasMessageContaining("stale-tmp-after");
    }

    @Test
    void theSettingBindsFromItsPropertyWithAnHourByDefault() {
        var bound = new org.springframework.boot.context.properties.bind.Binder(
                new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(
                        java.util.Map.of("proofline.store.stale-tmp-after", "90s")));
        assertThat(bound.bindOrCreate("proofline.store", StoreProperties.class).staleTmpAfter())
                .isEqualTo(Duration.ofSeconds(90));
        var none = new org.springframework.boot.context.properties.bind.Binder(
                new org.springframework.boot.context.properties.source.MapConfigurationPropertySource(
                        java.util.Map.of()));
        assertThat(none.bindOrCreate("proofline.store", StoreProperties.class).staleTmpAfter())
                .isEqualTo(Duration.ofHours(1));
    }

    @Test
    void withdrawTakesADirectoryOutWithOneRenameAndDeletesIt() throws IOException {
        DataDirectory data = new DataDirectory(dir, "instance-a");
        Path circuit = Files.createDirectories(data.circuit("a".repeat(64)));
        Files.write(circuit.resolve(CircuitService.ZKEY), new byte[]{1});
        data.withdraw(circuit);
        assertThat(circuit).doesNotExist();
        data.withdraw(circuit); // absent: nothing to do
        try (Stream<Path> left = Files.list(data.tmp())) {
            assertThat(left.toList()).isEmpty();
        }
    }

    @Test
    void onlyAnEmbeddedH2IsExclusive() {
        assertThat(EngineConfiguration.exclusiveDatabase(
                "jdbc:h2:file:./data/db/proofline;MODE=PostgreSQL;WRITE_DELAY=0")).isTrue();
        assertThat(EngineConfiguration.exclusiveDatabase("jdbc:h2:mem:test")).isTrue();
        assertThat(EngineConfiguration.exclusiveDatabase("jdbc:h2:tcp://db/proofline")).isFalse();
        assertThat(EngineConfiguration.exclusiveDatabase("jdbc:h2:file:./db;AUTO_SERVER=TRUE")).isFalse();
        assertThat(EngineConfiguration.exclusiveDatabase("jdbc:postgresql://db:5432/proofline")).isFalse();
        assertThat(EngineConfiguration.exclusiveDatabase("")).isFalse();
    }
}

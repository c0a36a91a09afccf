package io.proofline.deploy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/proofline}, the documented command: it starts the JVM with the heap rule's options, native access and
 * the Vector API module before the user's arguments. The JVM here is a stand-in {@code java} that prints what it was
 * given (for {@code heap-opts} it answers as the real command would), so the test needs no built jar.
 */
class LauncherTest {

    private static final Path LAUNCHER = Path.of("bin", "proofline");

    @Test
    void theJvmGetsTheHeapRuleNativeAccessAndTheVectorModuleBeforeTheCommand(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");
        Path javaHome = fakeJava(dir);

        Run run = launch(Map.of("JAVA_HOME", javaHome.toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_MEMORY_LIMIT", "3GiB"), "verify", "vk.json", "public.json", "proof.json");

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output().lines().toList()).containsExactly(
                "heap-opts asked with: -Xmx64m -XX:TieredStopAtLevel=1 -jar " + jar + " heap-opts --limit 3GiB",
                "started with: -Xmx768m -Xss512k --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector"
                        + " -jar " + jar + " verify vk.json public.json proof.json");
    }

    @Test
    void javaOptionsReplaceTheHeapRule(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");
        Run run = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_JAVA_OPTS", "-Xmx8g"), "serve");

        assertThat(run.output().lines().toList()).containsExactly("started with: -Xmx8g"
                + " --enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector -jar " + jar + " serve");
    }

    @Test
    void withoutAJarItSaysHowToBuildOne(@TempDir Path dir) throws Exception {
        Run run = launch(Map.of("PROOFLINE_JAR", dir.resolve("missing.jar").toString()), "verify");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.output()).contains("no jar at").contains("mvn -B -q -DskipTests package");
    }

    private record Run(int exit, String output) {
    }

    private static Run launch(Map<String, String> env, String... args) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(concat(LAUNCHER.toString(), args)).redirectErrorStream(true);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("PROOFLINE_MEMORY_LIMIT");
        builder.environment().remove("PROOFLINE_JAVA_OPTS");
        builder.environment().putAll(env);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(process.waitFor(), output);
    }

    /** A JAVA_HOME whose java prints its arguments; asked for heap-opts, it answers two options. */
    private static Path fakeJava(Path dir) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("jdk").resolve("bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, """
                #!/bin/sh
                for a in "$@"; do
                  if [ "$a" = heap-opts ]; then echo "heap-opts asked with: $*" >&2; echo "-Xmx768m -Xss512k"; exit 0; fi
                done
                echo "started with: $*"
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin.getParent();
    }

    private static List<String> concat(String first, String... rest) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), java.util.Arrays.stream(rest)).toList();
    }
}

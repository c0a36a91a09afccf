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
 * {@code bin/proofline}, the documented command and the Docker image's entrypoint: it starts the JVM with native
 * access before the user's arguments, the AOT cache beside the jar when there is one, the Vector API module for the
 * service and the benchmarks, and for the service alone the heap rule's options (a one-shot command does not pay a
 * second JVM for them). The JVM here is
 * a stand-in {@code java} that prints what it was given (for {@code heap-opts} it answers as the real command would),
 * so the test needs no built jar.
 */
class LauncherTest {

    private static final Path LAUNCHER = Path.of("bin", "proofline");
    /** The service's and the benchmarks' module options: the Vector API lanes pay for themselves there. */
    private static final String MODULES = "--enable-native-access=ALL-UNNAMED --add-modules jdk.incubator.vector";
    /** A one-shot command's: no Vector API module (its code would run interpreted, then cost the most JIT time). */
    private static final String ONE_SHOT = "--enable-native-access=ALL-UNNAMED";

    @Test
    void theServiceGetsTheHeapRuleNativeAccessAndTheVectorModuleBeforeTheCommand(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");
        Path javaHome = fakeJava(dir);

        Run run = launch(Map.of("JAVA_HOME", javaHome.toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_MEMORY_LIMIT", "3GiB"), "serve", "--server.port=0");

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output().lines().toList()).containsExactly(
                "heap-opts asked with: -Xmx64m -XX:TieredStopAtLevel=1 -jar " + jar + " heap-opts --limit 3GiB",
                "started with: -Xmx768m -Xss512k " + MODULES + " -jar " + jar + " serve --server.port=0");
    }

    @Test
    void noCommandIsTheServiceToo(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");

        Run run = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString()));

        assertThat(run.output().lines().toList()).containsExactly(
                "heap-opts asked with: -Xmx64m -XX:TieredStopAtLevel=1 -jar " + jar + " heap-opts",
                "started with: -Xmx768m -Xss512k " + MODULES + " -jar " + jar);
    }

    @Test
    void aOneShotCommandStartsOneJvmWithoutTheHeapRule(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");

        Run run = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_MEMORY_LIMIT", "3GiB"), "prove", "c.zkey", "w.wtns", "proof.json", "public.json");

        assertThat(run.exit()).as(run.output()).isZero();
        assertThat(run.output().lines().toList()).containsExactly("started with: " + ONE_SHOT + " -jar " + jar
                + " prove c.zkey w.wtns proof.json public.json");
    }

    @Test
    void theBenchmarksRunFromTheLabJarBesideTheProductWithTheVectorModuleWithoutTheHeapRule(@TempDir Path dir)
            throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");
        Path lab = Files.writeString(dir.resolve("proofline-lab.jar"), "stand-in");

        Run run = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_LAB_JAR", lab.toString()), "bench", "lanes");

        assertThat(run.output().lines().toList()).containsExactly("started with: " + MODULES + " -cp " + jar + ":"
                + lab + " io.proofline.Proofline bench lanes");
    }

    @Test
    void theGpuTimingsRunFromTheLabJarAsAOneShotCommand(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");
        Path lab = Files.writeString(dir.resolve("proofline-lab.jar"), "stand-in");

        Run run = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_LAB_JAR", lab.toString()), "gpu-bench", "--checks", "timed");

        assertThat(run.output().lines().toList()).containsExactly("started with: " + ONE_SHOT + " -cp " + jar + ":"
                + lab + " io.proofline.Proofline gpu-bench --checks timed");
    }

    @Test
    void withoutTheLabJarABenchmarkSaysWhereItLooked(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");

        Run run = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_LAB_JAR", dir.resolve("absent.jar").toString()), "bench", "lanes");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.output()).contains("lab command").contains("absent.jar");
    }

    @Test
    void theAotCacheBesideTheJarIsUsedWithItsMessagesSilenced(@TempDir Path dir) throws Exception {
        Path app = Files.createDirectories(dir.resolve("my app"));
        Path jar = Files.writeString(app.resolve("proofline.jar"), "stand-in");
        Path cache = Files.writeString(app.resolve("proofline.aot"), "stand-in");
        Map<String, String> env = Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString());

        Run run = launch(env, "verify", "vk.json", "public.json", "proof.json");

        assertThat(run.output().lines().toList()).containsExactly("started with: -XX:AOTCache=" + cache
                + " -Xlog:aot=off,cds=off " + ONE_SHOT + " -jar " + jar + " verify vk.json public.json proof.json");
        assertThat(run.argCount()).as("a path with a space stays one argument").isEqualTo(9);

        Map<String, String> withoutCache = new java.util.HashMap<>(env);
        withoutCache.put("PROOFLINE_AOT_CACHE", "");
        assertThat(launch(withoutCache, "verify").output()).doesNotContain("AOTCache");
        withoutCache.put("PROOFLINE_AOT_CACHE", dir.resolve("absent.aot").toString());
        assertThat(launch(withoutCache, "verify").output()).doesNotContain("AOTCache");
    }

    @Test
    void theBuildsExtractedJarIsPreferredUnlessTheExecutableJarIsNewer(@TempDir Path dir) throws Exception {
        Path launcher = Files.createDirectories(dir.resolve("bin")).resolve("proofline");
        Files.copy(LAUNCHER, launcher);
        Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path target = Files.createDirectories(dir.resolve("target").resolve("app")).getParent();
        Path executable = Files.writeString(target.resolve("proofline.jar"), "stand-in");
        Path extracted = Files.writeString(target.resolve("app").resolve("proofline.jar"), "stand-in");
        Map<String, String> env = Map.of("JAVA_HOME", fakeJava(dir).toString());
        Files.setLastModifiedTime(executable, java.nio.file.attribute.FileTime.fromMillis(1_000_000_000_000L));
        Files.setLastModifiedTime(extracted, java.nio.file.attribute.FileTime.fromMillis(1_000_000_060_000L));

        assertThat(launch(launcher, env, "verify").output()).contains("-jar " + dir.toRealPath()
                + "/bin/../target/app/proofline.jar verify");

        Files.setLastModifiedTime(executable, java.nio.file.attribute.FileTime.fromMillis(1_000_000_120_000L));
        assertThat(launch(launcher, env, "verify").output()).contains("-jar " + dir.toRealPath()
                + "/bin/../target/proofline.jar verify");
    }

    @Test
    void javaOptionsReplaceTheHeapRule(@TempDir Path dir) throws Exception {
        Path jar = Files.writeString(dir.resolve("proofline.jar"), "stand-in");
        Run run = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_JAVA_OPTS", "-Xmx8g"), "serve");
        Run oneShot = launch(Map.of("JAVA_HOME", fakeJava(dir).toString(), "PROOFLINE_JAR", jar.toString(),
                "PROOFLINE_JAVA_OPTS", "-Xmx8g -XX:+UseSerialGC"), "verify");

        assertThat(run.output().lines().toList()).containsExactly("started with: -Xmx8g " + MODULES + " -jar " + jar
                + " serve");
        assertThat(oneShot.output().lines().toList()).containsExactly("started with: -Xmx8g -XX:+UseSerialGC "
                + ONE_SHOT + " -jar " + jar + " verify");
    }

    @Test
    void withoutAJarItSaysHowToBuildOne(@TempDir Path dir) throws Exception {
        Run run = launch(Map.of("PROOFLINE_JAR", dir.resolve("missing.jar").toString()), "verify");

        assertThat(run.exit()).isEqualTo(2);
        assertThat(run.output()).contains("no jar at").contains("mvn -B -q -DskipTests package");
    }

    /** What the launcher printed, less the stand-in java's {@code args: N} line, which gives {@code argCount}. */
    private record Run(int exit, String output, int argCount) {
    }

    private static Run launch(Map<String, String> env, String... args) throws IOException, InterruptedException {
        return launch(LAUNCHER, env, args);
    }

    private static Run launch(Path launcher, Map<String, String> env, String... args)
            throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(concat(launcher.toString(), args)).redirectErrorStream(true);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("PROOFLINE_MEMORY_LIMIT");
        builder.environment().remove("PROOFLINE_JAVA_OPTS");
        builder.environment().remove("PROOFLINE_AOT_CACHE");
        builder.environment().putAll(env);
        Process process = builder.start();
        List<String> lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .toList();
        int argCount = lines.stream().filter(l -> l.startsWith("args: ")).mapToInt(l -> Integer.parseInt(l.substring(6)))
                .reduce((a, b) -> b).orElse(-1);
        String output = String.join("\n", lines.stream().filter(l -> !l.startsWith("args: ")).toList());
        return new Run(process.waitFor(), output, argCount);
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
                echo "args: $#" >&2
                """);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return bin.getParent();
    }

    private static List<String> concat(String first, String... rest) {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(first), java.util.Arrays.stream(rest)).toList();
    }
}

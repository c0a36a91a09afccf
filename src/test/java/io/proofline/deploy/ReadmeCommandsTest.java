package io.proofline.deploy;

import io.proofline.web.Api;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The README's commands as written: the service started by {@code PROOFLINE_MEMORY_LIMIT=4GiB bin/proofline serve} (the
 * launcher's heap rule and Spring read the same size grammar), then the README's own register-and-prove block run by
 * bash, curl and jq against it on port 8080. The jar is the build's extracted layout in miniature (a plain jar whose
 * manifest names the classes and libraries of this test run), since {@code mvn test} packages nothing.
 */
@Tag("slow")
class ReadmeCommandsTest {

    private static final String API_KEY = "readme-key";
    private static final int README_PORT = 8080;

    @Test
    void theServiceStartsAsTheReadmeSaysAndTheReadmesCommandsProve(@TempDir Path dir) throws Exception {
        Assumptions.assumeTrue(portFree(README_PORT), "port " + README_PORT + " is taken; the README's commands use it");
        Path jar = classPathJar(dir.resolve("proofline.jar"));
        Path log = dir.resolve("service.log");
        ProcessBuilder serve = new ProcessBuilder("bin/proofline", "serve").redirectErrorStream(true)
                .redirectOutput(log.toFile());
        serve.environment().putAll(java.util.Map.of("JAVA_HOME", System.getProperty("java.home"),
                "PROOFLINE_JAR", jar.toString(), "PROOFLINE_AOT_CACHE", "", "PROOFLINE_MEMORY_LIMIT", "4GiB",
                "PROOFLINE_SECURITY_API_KEYS", API_KEY, "PROOFLINE_SECURITY_ADMIN_PASSWORD", "readme",
                "PROOFLINE_STORE_DATA_DIR", dir.resolve("data").toString()));
        Process service = serve.start();
        try {
            Api api = new Api(README_PORT, API_KEY);
            awaitReady(service, log, Duration.ofMinutes(2));

            JsonNode memory = api.get("/api/v1/pipeline").json().get("memory");
            assertThat(memory.get("limitBytes").asLong()).as(memory.toString()).isEqualTo(4L << 30);

            ProcessBuilder readme = new ProcessBuilder("bash", "-euo", "pipefail", "-c", readmeBlock("api/v1/circuits"))
                    .redirectErrorStream(true);
            readme.environment().put("API_KEY", API_KEY);
            Process block = readme.start();
            String out = new String(block.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(block.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(block.exitValue()).as(out).isZero();

            String jobId = Api.JSON.readTree(out.substring(out.indexOf('{'))).get("id").asString();
            JsonNode job = api.awaitJob(jobId, Duration.ofMinutes(3));
            assertThat(job.get("status").asString()).as(job.toString()).isEqualTo("DONE");
        } finally {
            service.destroy();
            if (!service.waitFor(60, TimeUnit.SECONDS)) {
                service.destroyForcibly();
            }
        }
    }

    /** The first {@code bash} block of the README that contains {@code marker}. */
    static String readmeBlock(String marker) throws IOException {
        Matcher m = Pattern.compile("```bash\\n(.*?)```", Pattern.DOTALL)
                .matcher(Files.readString(Path.of("README.md")));
        while (m.find()) {
            if (m.group(1).contains(marker)) {
                return m.group(1);
            }
        }
        throw new AssertionError("the README has no bash block with " + marker);
    }

    /** A plain jar that runs io.proofline.Proofline on this test run's class path (its manifest's Class-Path). */
    static Path classPathJar(Path jar) throws IOException {
        StringBuilder classPath = new StringBuilder();
        for (String entry : System.getProperty("java.class.path").split(java.io.File.pathSeparator)) {
            classPath.append(Path.of(entry).toAbsolutePath().toUri()).append(' ');
        }
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.proofline.Proofline");
        manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classPath.toString().strip());
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush();
        }
        return jar;
    }

    private static void awaitReady(Process service, Path log, Duration timeout) throws Exception {
        Api anonymous = new Api(README_PORT, null);
        long end = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < end) {
            assertThat(service.isAlive()).as("the service exited: %s", Files.readString(log)).isTrue();
            try {
                if (anonymous.get("/actuator/health/readiness").status() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // starting
            }
            Thread.sleep(250);
        }
        throw new AssertionError("not ready in " + timeout + ": " + Files.readString(log));
    }

    private static boolean portFree(int port) {
        try (ServerSocket s = new ServerSocket(port)) {
            return true;
        } catch (IOException taken) {
            return false;
        }
    }
}

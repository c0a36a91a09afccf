package io.proofline.container;

import com.marcnuri.helm.Helm;
import io.proofline.engine.memory.HeapRule;
import io.proofline.web.Api;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Helm chart's rendered Deployment against the image tested here: the chart leaves the image's entry point alone
 * (no {@code command}; its {@code args} are the image's command), probes the paths and port that the image serves and
 * health-checks, mounts the data volume where the image declares it, runs as the image's user, and sets no memory
 * option but the pod's limit (no -Xmx, no budget: the entry point sizes the JVM from the cgroup). Then the image is run
 * as that Deployment runs it: the same limit ({@code --memory}), user, read-only root filesystem with /tmp and the data
 * directory writable, no capabilities, the Deployment's environment and its ConfigMap mounted at /config; both probes
 * answer 200 and the JVM has the heap rule's options for that limit, as in {@link ContainerMemoryLimitTest}.
 */
@Tag("container")
class HelmImageContractTest {

    private static final Path CHART = Path.of("helm", "proofline");
    private static final String LIMIT = "1536Mi";
    private static final long LIMIT_BYTES = 1536L << 20;

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("unchecked")
    void theChartsDeploymentRunsTheImageWithItsEntryPointProbesAndMemoryRule() throws Exception {
        Podman.requireImages(Podman.IMAGE);
        List<Map<String, Object>> docs = render(Map.of("resources", Map.of("limits", Map.of("memory", LIMIT),
                "requests", Map.of("memory", LIMIT))));
        Map<String, Object> deployment = find(docs, "Deployment");
        Map<String, Object> pod = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>)
                deployment.get("spec")).get("template")).get("spec");
        Map<String, Object> container = ((List<Map<String, Object>>) pod.get("containers")).getFirst();

        // Entry point: the image's; the chart's args are the image's command.
        assertThat(container).doesNotContainKey("command");
        assertThat(Podman.inspect(Podman.IMAGE, "{{json .Config.Entrypoint}}")).isEqualTo("[\"/app/bin/proofline\"]");
        assertThat(Api.JSON.writeValueAsString(container.get("args")))
                .isEqualTo(Podman.inspect(Podman.IMAGE, "{{json .Config.Cmd}}"));

        // Probes: the port the image exposes, the liveness path its HEALTHCHECK uses, the readiness path.
        Map<String, Object> port = ((List<Map<String, Object>>) container.get("ports")).getFirst();
        assertThat(Podman.inspect(Podman.IMAGE, "{{json .Config.ExposedPorts}}"))
                .contains("\"" + port.get("containerPort") + "/tcp\"");
        String liveness = probePath(container, "livenessProbe");
        String readiness = probePath(container, "readinessProbe");
        assertThat(probePath(container, "startupProbe")).isEqualTo(liveness);
        assertThat(Podman.inspect(Podman.IMAGE, "{{json .HealthCheck.Test}}")).contains(liveness);

        // Memory: the pod's limit and nothing else.
        Map<String, String> env = new java.util.LinkedHashMap<>();
        for (Map<String, Object> e : (List<Map<String, Object>>) container.get("env")) {
            if (e.containsKey("value")) {
                env.put((String) e.get("name"), String.valueOf(e.get("value")));
            }
        }
        assertThat(env).doesNotContainKeys("PROOFLINE_MEMORY_BUDGET", "PROOFLINE_MEMORY_LIMIT", "PROOFLINE_JAVA_OPTS");
        assertThat(env.get("JAVA_TOOL_OPTIONS")).doesNotContain("-Xmx", "MaxRAM", "-Xms");
        assertThat(env.get("MALLOC_ARENA_MAX")).isEqualTo(imageEnv("MALLOC_ARENA_MAX"));
        Map<String, Object> limits = (Map<String, Object>) ((Map<String, Object>) container.get("resources"))
                .get("limits");
        assertThat(limits.get("memory")).isEqualTo(LIMIT);

        // The user and the data directory: the image's.
        Map<String, Object> security = (Map<String, Object>) container.get("securityContext");
        assertThat(Podman.inspect(Podman.IMAGE, "{{.Config.User}}")).startsWith(security.get("runAsUser") + ":");
        String dataDir = env.get("PROOFLINE_DATA_DIR");
        assertThat(dataDir).isEqualTo(imageEnv("PROOFLINE_DATA_DIR"));
        assertThat(Podman.inspect(Podman.IMAGE, "{{json .Config.Volumes}}")).contains("\"" + dataDir + "\"");

        // The image run as the Deployment runs it.
        Path config = Files.createDirectories(tmp.resolve("config"));
        Files.writeString(config.resolve("application.yml"), (String) ((Map<String, Object>)
                find(docs, "ConfigMap").get("data")).get("application.yml"));
        Files.setPosixFilePermissions(config, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(config.resolve("application.yml"), PosixFilePermissions.fromString("rw-r--r--"));
        String name = "proofline-helm-" + System.nanoTime();
        String volume = name + "-data";
        List<String> options = new ArrayList<>(List.of("--memory", Long.toString(LIMIT_BYTES),
                "--user", security.get("runAsUser") + ":" + ((Map<String, Object>) pod.get("securityContext"))
                        .get("runAsGroup"),
                "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
                "-v", volume + ":" + dataDir, "-v", config + ":/config:ro"));
        env.forEach((k, v) -> options.addAll(List.of("-e", k + "=" + v)));
        String[] args = ((List<String>) container.get("args")).toArray(String[]::new);
        try (ProoflineContainer c = ProoflineContainer.start(name, options, args)) {
            Duration ready = c.awaitReady(Duration.ofMinutes(5));
            Api anonymous = new Api(c.port, null);
            assertThat(anonymous.get(readiness).status()).isEqualTo(200);
            assertThat(anonymous.get(liveness).status()).isEqualTo(200);
            assertThat(c.logs()).contains("memory: limit " + (LIMIT_BYTES >> 20) + " MiB (CGROUP)");
            assertThat(c.exec("cat", "/proc/1/cmdline").replace('\0', ' '))
                    .contains(HeapRule.jvmOptions(LIMIT_BYTES));
            System.out.printf("helm contract: the chart's Deployment (limit %s, read-only root, user %s) ready in "
                    + "%.1f s, probes %s and %s answer 200%n", LIMIT, security.get("runAsUser"),
                    ready.toMillis() / 1000.0, readiness, liveness);
        } finally {
            Podman.removeQuietly(List.of(name), List.of(volume));
        }
    }

    private static String imageEnv(String name) {
        for (String e : Podman.inspect(Podman.IMAGE, "{{range .Config.Env}}{{println .}}{{end}}").split("\n")) {
            if (e.startsWith(name + "=")) {
                return e.substring(name.length() + 1);
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static String probePath(Map<String, Object> container, String probe) {
        Map<String, Object> httpGet = (Map<String, Object>) ((Map<String, Object>) container.get(probe)).get("httpGet");
        assertThat(httpGet.get("port")).isEqualTo("http");
        return (String) httpGet.get("path");
    }

    private List<Map<String, Object>> render(Map<String, Object> values) throws Exception {
        Path file = Files.createTempFile(tmp, "values", ".yaml");
        Files.writeString(file, new Yaml().dump(values));
        String manifests = new Helm(CHART).template().withName("prover").withNamespace("proofs")
                .withKubeVersion("v1.31.0").withValuesFile(file).call();
        List<Map<String, Object>> docs = new ArrayList<>();
        for (Object doc : new Yaml().loadAll(new StringReader(manifests))) {
            if (doc != null) {
                @SuppressWarnings("unchecked")
                Map<String, Object> map = (Map<String, Object>) doc;
                docs.add(map);
            }
        }
        return docs;
    }

    private static Map<String, Object> find(List<Map<String, Object>> docs, String kind) {
        List<Map<String, Object>> found = docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(found).as(kind).hasSize(1);
        return found.getFirst();
    }
}

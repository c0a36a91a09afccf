package io.proofline.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.marcnuri.helm.DryRun;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.Release;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.yaml.snakeyaml.Yaml;

/**
 * Lints and renders {@code helm/proofline} with a real Helm engine (helm-java: Helm's Go library through JNA)
 * and checks the rendered manifests: probes on the Actuator health groups, the GPU request, the memory plan,
 * the single-instance rule of the embedded store, the pod's security, the Secret, the ServiceMonitor, the memory
 * alerts and the Grafana dashboard.
 */
@Tag("slow")
class HelmChartTest {

    private static final Path CHART = Path.of("helm", "proofline");

    // The service's settled interface (also in helm/proofline/templates/_contract.tpl).
    private static final String LIVENESS = "/actuator/health/liveness";
    private static final String READINESS = "/actuator/health/readiness";
    private static final String PROMETHEUS = "/actuator/prometheus";
    private static final int PORT = 8080;
    private static final String DATA_DIR = "/var/lib/proofline";
    private static final long MIB = 1L << 20;
    private static final long GIB = 1L << 30;

    @TempDir
    Path tmp;

    // ---------------------------------------------------------------------------------------------
    // Lint
    // ---------------------------------------------------------------------------------------------

    @Test
    void chartPassesStrictLint() {
        LintResult lint = new Helm(CHART).lint().strict().call();
        assertThat(lint.isFailed()).as("helm lint --strict: %s", lint.getMessages()).isFalse();
        assertThat(lint.getMessages()).noneMatch(m -> m.contains("[ERROR]") || m.contains("[WARNING]"));
    }

    // ---------------------------------------------------------------------------------------------
    // Probes
    // ---------------------------------------------------------------------------------------------

    @Test
    void probesUseTheActuatorHealthGroupsOnTheHttpPort() throws IOException {
        Map<String, Object> container = container(render(Map.of()));

        assertThat(at(container, "livenessProbe", "httpGet", "path")).isEqualTo(LIVENESS);
        assertThat(at(container, "startupProbe", "httpGet", "path")).isEqualTo(LIVENESS);
        assertThat(at(container, "readinessProbe", "httpGet", "path")).isEqualTo(READINESS);
        for (String probe : List.of("livenessProbe", "readinessProbe", "startupProbe")) {
            assertThat(at(container, probe, "httpGet", "port")).as(probe).isEqualTo("http");
        }
        Map<String, Object> port = list(container, "ports").getFirst();
        assertThat(port).containsEntry("name", "http").containsEntry("containerPort", PORT);
        assertThat(env(container)).containsEntry("SERVER_PORT", String.valueOf(PORT));
    }

    /**
     * The probe paths exist only while the application keeps Actuator's defaults: health probes enabled,
     * base path {@code /actuator}, management on the server's port. Checks the application's own configuration
     * (root application.yml and src/main/resources) and the one the chart adds.
     */
    @Test
    void probePathsAgreeWithTheApplicationsManagementConfig() throws IOException {
        Map<String, String> app = applicationConfig();
        assertThat(app).as("no application configuration found").isNotEmpty();

        String basePath = app.getOrDefault("management.endpoints.web.base-path", "/actuator");
        assertThat(LIVENESS).isEqualTo(basePath + "/health/liveness");
        assertThat(READINESS).isEqualTo(basePath + "/health/readiness");
        assertThat(PROMETHEUS).isEqualTo(basePath + "/prometheus");
        assertThat(app.get("management.endpoint.health.probes.enabled"))
                .as("health probes must be enabled outside Kubernetes too (Docker HEALTHCHECK)").isEqualTo("true");
        assertThat(app).as("a separate management port would move the probes")
                .doesNotContainKey("management.server.port");
        if (app.containsKey("server.port")) {
            assertThat(withDefault(app.get("server.port"))).isEqualTo(String.valueOf(PORT));
        }

        Map<String, Object> chartConfig = new Yaml().load(
                (String) at(find(render(Map.of()), "ConfigMap"), "data", "application.yml"));
        assertThat(at(chartConfig, "management", "endpoint", "health", "probes", "enabled")).isEqualTo(true);
        assertThat((String) at(chartConfig, "management", "endpoints", "web", "exposure", "include"))
                .contains("health", "prometheus");
        assertThat(at(chartConfig, "server", "port")).isEqualTo(PORT);
        assertThat(at(chartConfig, "server", "forward-headers-strategy"))
                .as("the login throttle counts the client's address, not the ingress's").isEqualTo("native");
    }

    // ---------------------------------------------------------------------------------------------
    // GPU
    // ---------------------------------------------------------------------------------------------

    @Test
    void gpuIsRequestedOnlyWhenEnabled() throws IOException {
        List<Map<String, Object>> cpuOnly = render(Map.of());
        Map<String, Object> cpuContainer = container(cpuOnly);
        assertThat(map(cpuContainer, "resources", "limits")).doesNotContainKey("nvidia.com/gpu");
        assertThat(map(cpuContainer, "resources", "requests")).doesNotContainKey("nvidia.com/gpu");
        assertThat(env(cpuContainer)).containsEntry("NVIDIA_VISIBLE_DEVICES", "void");
        assertThat(gpuConfig(cpuOnly)).containsEntry("enabled", false).containsEntry("cpu-fallback", true);
        assertThat(map(find(cpuOnly, "Deployment"), "spec", "template", "spec")).doesNotContainKey("runtimeClassName");

        List<Map<String, Object>> gpu = render(Map.of("gpu", Map.of("enabled", true, "count", 1,
                "runtimeClassName", "nvidia", "workersPerDevice", 3, "devices", "0,0", "cpuFallback", false)));
        Map<String, Object> gpuContainer = container(gpu);
        assertThat(map(gpuContainer, "resources", "limits")).containsEntry("nvidia.com/gpu", 1);
        assertThat(env(gpuContainer)).doesNotContainKey("NVIDIA_VISIBLE_DEVICES");
        assertThat(gpuConfig(gpu)).containsEntry("enabled", true).containsEntry("workers-per-device", 3)
                .containsEntry("devices", "0,0").containsEntry("cpu-fallback", false);
        assertThat(at(find(gpu, "Deployment"), "spec", "template", "spec", "runtimeClassName")).isEqualTo("nvidia");
    }

    @Test
    void schedulingConstraintsReachThePod() throws IOException {
        Map<String, Object> toleration = Map.of("key", "nvidia.com/gpu", "operator", "Exists", "effect", "NoSchedule");
        Map<String, Object> podSpec = map(find(render(Map.of(
                "nodeSelector", Map.of("nvidia.com/gpu.present", "true"),
                "tolerations", List.of(toleration),
                "affinity", Map.of("nodeAffinity", Map.of("preferredDuringSchedulingIgnoredDuringExecution",
                        List.of(Map.of("weight", 1, "preference", Map.of("matchExpressions", List.of(Map.of(
                                "key", "gpu", "operator", "In", "values", List.of("h200")))))))))),
                "Deployment"), "spec", "template", "spec");

        assertThat(map(podSpec, "nodeSelector")).containsEntry("nvidia.com/gpu.present", "true");
        assertThat(list(podSpec, "tolerations")).containsExactly(toleration);
        assertThat(map(podSpec, "affinity")).containsKey("nodeAffinity");
    }

    // ---------------------------------------------------------------------------------------------
    // Memory plan
    // ---------------------------------------------------------------------------------------------

    /**
     * The pod's limit is the service's memory limit: the chart sets no heap and no budget of its own, so that the
     * image's entrypoint (bin/proofline, through `proofline heap-opts`) and the service's MemoryPlan are the one rule.
     */
    @ParameterizedTest(name = "limit {0}")
    @CsvSource({"16Gi", "1536Mi", "700Gi", "20000M"})
    void theJvmAndTheBudgetAreLeftToTheHeapRule(String limit) throws IOException {
        List<Map<String, Object>> docs = render(Map.of("resources", memory(limit)));
        Map<String, Object> container = container(docs);

        assertThat(env(container)).doesNotContainKey("PROOFLINE_MEMORY_BUDGET").containsEntry("MALLOC_ARENA_MAX", "2");
        assertThat(env(container).get("JAVA_TOOL_OPTIONS")).doesNotContain("-Xmx").doesNotContain("MaxRAM");
        assertThat(container).doesNotContainKey("command");
        assertThat(at(container, "resources", "limits", "memory")).isEqualTo(limit);
        assertThat(at(find(docs, "Deployment"), "spec", "template", "metadata", "annotations",
                "proofline.io/memory-limit-bytes")).isEqualTo(String.valueOf(bytes(limit)));
        // The image's entrypoint is bin/proofline, the one launcher: it sizes the service's JVM by heap-opts.
        assertThat(Files.readString(Path.of("docker", "Dockerfile")))
                .contains("COPY --chmod=0755 bin/proofline ./bin/proofline", "ENTRYPOINT [\"/app/bin/proofline\"]");
        assertThat(Files.readString(Path.of("bin", "proofline"))).contains("heap-opts")
                .contains("exec \"$java\" $heap_opts \"$@\"");
    }

    @Test
    void anExplicitBudgetBelowTheLimitIsPassedThrough() throws IOException {
        Map<String, Object> container = container(render(Map.of(
                "resources", memory("32Gi"),
                "memory", Map.of("budget", "24GiB"))));

        assertThat(env(container)).containsEntry("PROOFLINE_MEMORY_BUDGET", String.valueOf(24 * GIB));
    }

    @Test
    void renderingFailsWhenTheBudgetDoesNotFitTheLimit() {
        assertRenderFails(Map.of("memory", Map.of("budget", "16Gi")), "must be below resources.limits.memory");
        Map<String, Object> noLimit = new LinkedHashMap<>();
        noLimit.put("memory", null); // null deletes the default's key
        assertRenderFails(Map.of("resources", Map.of("limits", noLimit)), "resources.limits.memory is required");
        assertRenderFails(Map.of("resources", Map.of("limits", Map.of("memory", "8Gi"))),
                "resources.requests.memory (16Gi) exceeds resources.limits.memory (8Gi)");
        assertRenderFails(Map.of("resources", Map.of("limits", Map.of("memory", "16 gigs"))), "cannot read");
    }

    // ---------------------------------------------------------------------------------------------
    // Replicas and the job store
    // ---------------------------------------------------------------------------------------------

    @Test
    void severalReplicasWithoutPostgresqlFailToRender() {
        assertRenderFails(Map.of("replicaCount", 2), "requires PostgreSQL");
        assertRenderFails(Map.of("replicaCount", 3, "persistence", Map.of("enabled", false)), "requires PostgreSQL");
    }

    @Test
    void severalReplicasWithPostgresqlRenderWithRollingUpdates() throws IOException {
        List<Map<String, Object>> docs = render(Map.of("replicaCount", 3,
                "database", Map.of("url", "jdbc:postgresql://pg:5432/proofline", "password", "pg-secret"),
                "persistence", Map.of("accessModes", List.of("ReadWriteMany"))));
        Map<String, Object> deployment = find(docs, "Deployment");

        assertThat(at(deployment, "spec", "replicas")).isEqualTo(3);
        assertThat(at(deployment, "spec", "strategy", "type")).isEqualTo("RollingUpdate");
        assertThat(env(container(docs))).containsEntry("SPRING_DATASOURCE_URL", "jdbc:postgresql://pg:5432/proofline");
        // A shared data directory on a ReadWriteOnce claim cannot serve pods on several nodes.
        assertRenderFails(Map.of("replicaCount", 2, "database", Map.of("url", "jdbc:postgresql://pg/p")),
                "ReadWriteMany");
    }

    @Test
    void theEmbeddedStoreRecreatesThePodInsteadOfRollingIt() throws IOException {
        List<Map<String, Object>> docs = render(Map.of());
        assertThat(at(find(docs, "Deployment"), "spec", "strategy", "type")).isEqualTo("Recreate");
        assertThat(env(container(docs))).doesNotContainKeys("SPRING_DATASOURCE_URL", "SPRING_DATASOURCE_PASSWORD");
    }

    // ---------------------------------------------------------------------------------------------
    // Pod security and volumes
    // ---------------------------------------------------------------------------------------------

    @Test
    void podRunsNonRootWithAReadOnlyRootFilesystemAndWritableDataAndTmp() throws IOException {
        List<Map<String, Object>> docs = render(Map.of());
        Map<String, Object> podSpec = map(find(docs, "Deployment"), "spec", "template", "spec");
        Map<String, Object> container = container(docs);

        assertThat(map(podSpec, "securityContext")).containsEntry("runAsNonRoot", true);
        assertThat((Integer) at(podSpec, "securityContext", "runAsUser")).isPositive();
        assertThat(map(container, "securityContext"))
                .containsEntry("readOnlyRootFilesystem", true)
                .containsEntry("allowPrivilegeEscalation", false)
                .containsEntry("runAsNonRoot", true);
        assertThat(at(container, "securityContext", "capabilities", "drop")).isEqualTo(List.of("ALL"));

        Map<String, Map<String, Object>> mounts = new LinkedHashMap<>();
        list(container, "volumeMounts").forEach(m -> mounts.put((String) m.get("mountPath"), m));
        assertThat(mounts).containsKeys(DATA_DIR, "/tmp");
        assertThat(mounts.get(DATA_DIR)).doesNotContainEntry("readOnly", true);
        assertThat(mounts.get("/tmp")).doesNotContainEntry("readOnly", true);
        assertThat(env(container)).containsEntry("PROOFLINE_DATA_DIR", DATA_DIR);

        Map<String, Map<String, Object>> volumes = new LinkedHashMap<>();
        list(podSpec, "volumes").forEach(v -> volumes.put((String) v.get("name"), v));
        assertThat(volumes.get("tmp")).containsKey("emptyDir");
        assertThat(at(volumes.get("data"), "persistentVolumeClaim", "claimName"))
                .isEqualTo(at(find(docs, "PersistentVolumeClaim"), "metadata", "name"));
    }

    @Test
    void withoutPersistenceTheDataDirectoryIsAnEmptyDirAndNoClaimIsMade() throws IOException {
        List<Map<String, Object>> docs = render(Map.of("persistence", Map.of("enabled", false)));
        assertThat(kinds(docs)).doesNotContain("PersistentVolumeClaim");
        Map<String, Object> data = list(map(find(docs, "Deployment"), "spec", "template", "spec"), "volumes").stream()
                .filter(v -> "data".equals(v.get("name"))).findFirst().orElseThrow();
        assertThat(data).containsKey("emptyDir");
    }

    // ---------------------------------------------------------------------------------------------
    // Secret
    // ---------------------------------------------------------------------------------------------

    @Test
    void secretCarriesApiKeysAdminAndDatabaseCredentials() throws IOException {
        List<Map<String, Object>> docs = render(Map.of(
                "security", Map.of("apiKeys", List.of("key-one", "key-two"), "adminUser", "root-of-trust",
                        "adminPassword", "s3cret", "metricsPassword", "m3trics"),
                "database", Map.of("url", "jdbc:postgresql://pg/proofline", "username", "prover", "password", "pg-pass")));
        Map<String, String> secret = secretData(find(docs, "Secret"));

        assertThat(secret).containsEntry("api-keys", "key-one,key-two")
                .containsEntry("admin-user", "root-of-trust")
                .containsEntry("admin-password", "s3cret")
                .containsEntry("metrics-user", "metrics")
                .containsEntry("metrics-password", "m3trics")
                .containsEntry("database-username", "prover")
                .containsEntry("database-password", "pg-pass");

        String secretName = (String) at(find(docs, "Secret"), "metadata", "name");
        Map<String, Object> refs = secretRefs(container(docs));
        assertThat(refs).containsOnlyKeys("PROOFLINE_SECURITY_API_KEYS", "PROOFLINE_SECURITY_ADMIN_USER",
                "PROOFLINE_SECURITY_ADMIN_PASSWORD", "PROOFLINE_SECURITY_METRICS_USER",
                "PROOFLINE_SECURITY_METRICS_PASSWORD", "SPRING_DATASOURCE_USERNAME", "SPRING_DATASOURCE_PASSWORD");
        refs.forEach((name, ref) -> {
            assertThat(at(ref, "name")).as(name).isEqualTo(secretName);
            assertThat(secret).as(name).containsKey((String) at(ref, "key"));
        });
        // Credentials never appear as plain values in the pod spec.
        assertThat(find(docs, "Deployment").toString()).doesNotContain("s3cret", "m3trics", "pg-pass", "key-one");
    }

    @Test
    void emptyCredentialsAreGenerated() throws IOException {
        Map<String, String> secret = secretData(find(render(Map.of()), "Secret"));
        assertThat(secret.get("api-keys")).hasSize(40).matches("[A-Za-z0-9]+");
        assertThat(secret.get("admin-password")).hasSize(24).matches("[A-Za-z0-9]+");
        assertThat(secret.get("metrics-password")).hasSize(24).matches("[A-Za-z0-9]+")
                .isNotEqualTo(secret.get("admin-password"));
        assertThat(secret).containsEntry("admin-user", "admin").doesNotContainKey("database-password");
    }

    @Test
    void anExistingSecretReplacesTheChartsOwn() throws IOException {
        List<Map<String, Object>> docs = render(Map.of("security", Map.of("existingSecret", "vault-synced"),
                "serviceMonitor", Map.of("enabled", true)));
        assertThat(kinds(docs)).doesNotContain("Secret");
        secretRefs(container(docs)).forEach((name, ref) -> assertThat(at(ref, "name")).as(name).isEqualTo("vault-synced"));
        assertThat(at(find(docs, "ServiceMonitor"), "spec", "endpoints")).asString().contains("vault-synced");
    }

    // ---------------------------------------------------------------------------------------------
    // Monitoring and availability
    // ---------------------------------------------------------------------------------------------

    @Test
    void serviceMonitorAppearsOnlyWhenEnabled() throws IOException {
        assertThat(kinds(render(Map.of()))).doesNotContain("ServiceMonitor");

        List<Map<String, Object>> docs = render(Map.of("serviceMonitor",
                Map.of("enabled", true, "interval", "7s", "labels", Map.of("release", "kube-prometheus-stack"))));
        Map<String, Object> monitor = find(docs, "ServiceMonitor");
        Map<String, Object> endpoint = list(map(monitor, "spec"), "endpoints").getFirst();
        String secretName = (String) at(find(docs, "Secret"), "metadata", "name");

        assertThat(endpoint).containsEntry("path", PROMETHEUS).containsEntry("port", "http").containsEntry("interval", "7s");
        // the read-only metrics user, not the admin
        assertThat(at(endpoint, "basicAuth", "username")).isEqualTo(Map.of("name", secretName, "key", "metrics-user"));
        assertThat(at(endpoint, "basicAuth", "password")).isEqualTo(Map.of("name", secretName, "key", "metrics-password"));
        assertThat(map(monitor, "metadata", "labels")).containsEntry("release", "kube-prometheus-stack");
        assertThat(map(monitor, "spec", "selector", "matchLabels"))
                .isEqualTo(map(find(docs, "Service"), "spec", "selector"));
    }

    @Test
    void alertsWatchRssAgainstTheLimitTheHeapAfterGcTheUnaccountedBytesAndJobsNotFinishing() throws IOException {
        assertThat(kinds(render(Map.of()))).doesNotContain("PrometheusRule");

        List<Map<String, Object>> docs = render(Map.of("prometheusRule", Map.of("enabled", true,
                "unaccountedAbove", "300Mi", "labels", Map.of("release", "kube-prometheus-stack"))));
        Map<String, Object> rule = find(docs, "PrometheusRule");
        Map<String, String> exprByAlert = new LinkedHashMap<>();
        for (Map<String, Object> group : list(map(rule, "spec"), "groups")) {
            list(group, "rules").forEach(r -> exprByAlert.put((String) r.get("alert"), (String) r.get("expr")));
        }

        assertThat(exprByAlert.get("ProoflineRssNearMemoryLimit"))
                .contains("proofline_process_rss_bytes{").contains("> 0.9 * proofline_memory_limit_bytes{");
        assertThat(exprByAlert.get("ProoflineUnaccountedMemory"))
                .contains("proofline_memory_unaccounted_bytes{").endsWith("> " + 300 * MIB);
        assertThat(exprByAlert.get("ProoflineHeapNearMax"))
                .contains("proofline_heap_after_gc_bytes{").contains("> 0.85 * proofline_heap_max_bytes{");
        assertThat(exprByAlert.get("ProoflineJobNotFinishing"))
                .contains("max(proofline_jobs_oldest_in_flight_age_seconds{").endsWith("> 3600");
        assertThat(map(rule, "metadata", "labels")).containsEntry("release", "kube-prometheus-stack");
        assertThat(exportedMetrics()).containsAll(metricsIn(String.join(" ", exprByAlert.values())));
    }

    @Test
    void theGrafanaDashboardShowsTheMemoryAndPipelineFiguresTheServiceExports() throws IOException {
        assertThat(render(Map.of())).noneMatch(d -> ((String) at(d, "metadata", "name")).endsWith("-dashboard"));

        List<Map<String, Object>> docs = render(Map.of("grafanaDashboard", Map.of("enabled", true)));
        Map<String, Object> configMap = docs.stream().filter(d -> "ConfigMap".equals(d.get("kind"))
                && ((String) at(d, "metadata", "name")).endsWith("-dashboard")).findFirst().orElseThrow();
        assertThat(map(configMap, "metadata", "labels")).containsEntry("grafana_dashboard", "1");
        String json = (String) at(configMap, "data", "proofline.json");
        Map<String, Object> dashboard = new Yaml().load(json); // JSON is YAML
        List<Map<String, Object>> panels = list(dashboard, "panels");
        String exprs = String.join(" ", panels.stream().flatMap(p -> list(p, "targets").stream())
                .map(t -> (String) t.get("expr")).toList());

        assertThat(panels).extracting(p -> (String) p.get("title")).anyMatch(t -> t.startsWith("RSS against the memory limit"))
                .anyMatch(t -> t.startsWith("Unaccounted")).anyMatch(t -> t.contains("a/b/c"))
                .anyMatch(t -> t.startsWith("Queue depth")).anyMatch(t -> t.startsWith("GPU busy"))
                .anyMatch(t -> t.startsWith("Heap after GC"));
        assertThat(metricsIn(exprs)).contains("proofline_process_rss_bytes", "proofline_memory_limit_bytes",
                "proofline_budget_reserved_bytes", "proofline_memory_unaccounted_bytes", "proofline_buffer_count",
                "proofline_queue_depth", "proofline_device_busy_workers", "proofline_heap_after_gc_bytes",
                "proofline_heap_max_bytes");
        assertThat(exportedMetrics()).containsAll(metricsIn(exprs));
    }

    /** The Prometheus names of the meters the ops binders register ({@code proofline.a.b} → {@code proofline_a_b}). */
    private static List<String> exportedMetrics() throws IOException {
        String source = Files.readString(Path.of("src/main/java/io/proofline/ops/PipelineMetrics.java"))
                + Files.readString(Path.of("src/main/java/io/proofline/ops/DeliveryMetrics.java"));
        return metricsIn(source.replace('.', '_'));
    }

    private static List<String> metricsIn(String text) {
        Matcher m = Pattern.compile("proofline_[a-z_]+").matcher(text);
        List<String> names = new ArrayList<>();
        while (m.find()) {
            names.add(m.group().replaceAll("_+$", ""));
        }
        return names.stream().distinct().toList();
    }

    @Test
    void serviceAndDisruptionBudgetSelectThePods() throws IOException {
        List<Map<String, Object>> docs = render(Map.of());
        Map<String, Object> podLabels = map(find(docs, "Deployment"), "spec", "template", "metadata", "labels");

        assertThat(podLabels).containsAllEntriesOf(map(find(docs, "Service"), "spec", "selector"));
        assertThat(podLabels).containsAllEntriesOf(map(find(docs, "PodDisruptionBudget"), "spec", "selector", "matchLabels"));
        assertThat(list(map(find(docs, "Service"), "spec"), "ports").getFirst()).containsEntry("targetPort", "http");
        // One replica: maxUnavailable 1 lets node drains proceed.
        assertThat(map(find(docs, "PodDisruptionBudget"), "spec")).containsEntry("maxUnavailable", 1);
    }

    @Test
    void notesSayHowToReachTheConsoleAndTheApi() {
        // A client-only dry-run install renders NOTES.txt (helm template does not).
        Release release = new Helm(CHART).install().withName("prover").withNamespace("proofs")
                .withKubeVersion("v1.31.0").clientOnly().dryRun().withDryRunOption(DryRun.CLIENT).call();
        String notes = release.getOutput().substring(release.getOutput().indexOf("NOTES:"));

        assertThat(notes).contains("kubectl port-forward -n proofs svc/prover-proofline 8080:8080",
                "$PROOFLINE_URL/console", "$PROOFLINE_URL/api/v1", "{.data.admin-password}", "{.data.api-keys}",
                "Memory: limit 17179869184 B");
    }

    // ---------------------------------------------------------------------------------------------
    // Docker files use the same contract
    // ---------------------------------------------------------------------------------------------

    @Test
    @SuppressWarnings("unchecked")
    void dockerfileAndComposeUseTheSameContract() throws IOException {
        String dockerfile = Files.readString(Path.of("docker", "Dockerfile"));
        assertThat(dockerfile).contains("HEALTHCHECK", LIVENESS, "ENTRYPOINT [\"/app/bin/proofline\"]",
                "PROOFLINE_DATA_DIR=" + DATA_DIR, "VOLUME [\"" + DATA_DIR + "\"]", "EXPOSE " + PORT);
        assertThat(Path.of("docker", "entrypoint.sh")).as("one launcher: bin/proofline").doesNotExist();
        assertThat(Files.readString(Path.of("bin", "proofline"))).contains("--enable-native-access=ALL-UNNAMED");
        Matcher user = Pattern.compile("(?m)^USER\\s+(\\S+)").matcher(dockerfile);
        assertThat(user.find()).as("USER instruction").isTrue();
        assertThat(user.group(1)).doesNotStartWith("root").doesNotStartWith("0");

        Map<String, Object> prometheus = new Yaml().load(Files.readString(Path.of("docker", "prometheus.yml")));
        Map<String, Object> job = ((List<Map<String, Object>>) prometheus.get("scrape_configs")).getFirst();
        assertThat(job).containsEntry("metrics_path", PROMETHEUS);
        assertThat(map(job, "basic_auth")).containsEntry("username", "metrics");

        Map<String, Object> compose = new Yaml().load(Files.readString(Path.of("docker", "compose.yaml")));
        Map<String, Object> proofline = map(compose, "services", "proofline");
        assertThat(map(proofline, "environment")).containsEntry("PROOFLINE_SECURITY_METRICS_USER", "metrics")
                .containsKey("PROOFLINE_SECURITY_METRICS_PASSWORD")
                .containsEntry("PROOFLINE_SECURITY_ADMIN_USER", "admin")
                .containsKey("SPRING_DATASOURCE_URL");
        assertThat(map(compose, "services")).containsKeys("postgres", "prometheus");
    }

    // ---------------------------------------------------------------------------------------------
    // Helpers
    // ---------------------------------------------------------------------------------------------

    /** Resources with the memory request equal to the limit (the chart rejects a request above it). */
    private static Map<String, Object> memory(String limit) {
        return Map.of("limits", Map.of("memory", limit), "requests", Map.of("memory", limit));
    }

    /** {@code helm template} with the chart's defaults overridden by {@code values}; one map per document. */
    private List<Map<String, Object>> render(Map<String, Object> values) throws IOException {
        String manifests = template(values);
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

    private String template(Map<String, Object> values) throws IOException {
        Path file = Files.createTempFile(tmp, "values", ".yaml");
        Files.writeString(file, new Yaml().dump(values));
        return new Helm(CHART).template()
                .withName("prover")
                .withNamespace("proofs")
                // helm-java's default is Kubernetes v1.20, older than the chart's kubeVersion.
                .withKubeVersion("v1.31.0")
                .withValuesFile(file)
                .call();
    }

    private void assertRenderFails(Map<String, Object> values, String reason) {
        assertThatThrownBy(() -> template(values))
                .as("rendering %s", values)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(reason);
    }

    private static Map<String, Object> find(List<Map<String, Object>> docs, String kind) {
        List<Map<String, Object>> found = docs.stream().filter(d -> kind.equals(d.get("kind"))).toList();
        assertThat(found).as("exactly one %s among %s", kind, kinds(docs)).hasSize(1);
        return found.getFirst();
    }

    private static List<String> kinds(List<Map<String, Object>> docs) {
        return docs.stream().map(d -> (String) d.get("kind")).toList();
    }

    private static Map<String, Object> container(List<Map<String, Object>> docs) {
        List<Map<String, Object>> containers = list(map(find(docs, "Deployment"), "spec", "template", "spec"), "containers");
        assertThat(containers).hasSize(1);
        return containers.getFirst();
    }

    /** The container's plain {@code value} variables (variables from Secrets are left out). */
    private static Map<String, String> env(Map<String, Object> container) {
        Map<String, String> env = new LinkedHashMap<>();
        for (Map<String, Object> e : list(container, "env")) {
            if (e.containsKey("value")) {
                env.put((String) e.get("name"), String.valueOf(e.get("value")));
            }
        }
        return env;
    }

    private static Map<String, Object> secretRefs(Map<String, Object> container) {
        Map<String, Object> refs = new LinkedHashMap<>();
        for (Map<String, Object> e : list(container, "env")) {
            if (e.containsKey("valueFrom")) {
                refs.put((String) e.get("name"), at(e, "valueFrom", "secretKeyRef"));
            }
        }
        return refs;
    }

    private static Map<String, String> secretData(Map<String, Object> secret) {
        Map<String, String> decoded = new LinkedHashMap<>();
        map(secret, "data").forEach((k, v) ->
                decoded.put(k, new String(Base64.getDecoder().decode((String) v), StandardCharsets.UTF_8)));
        return decoded;
    }

    private static Map<String, Object> gpuConfig(List<Map<String, Object>> docs) {
        Map<String, Object> app = new Yaml().load((String) at(find(docs, "ConfigMap"), "data", "application.yml"));
        return map(app, "proofline", "gpu");
    }

    private static Object at(Object node, String... path) {
        Object current = node;
        for (String key : path) {
            assertThat(current).as("parent of %s in %s", key, String.join(".", path)).isInstanceOf(Map.class);
            current = ((Map<?, ?>) current).get(key);
        }
        return current;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node, String... path) {
        Object value = at(node, path);
        assertThat(value).as(String.join(".", path)).isInstanceOf(Map.class);
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Map<String, Object> node, String key) {
        Object value = node.get(key);
        assertThat(value).as(key).isInstanceOf(List.class);
        return (List<Map<String, Object>>) value;
    }

    /** Bytes of a Kubernetes quantity, computed independently of the chart's template. */
    private static long bytes(String quantity) {
        Matcher m = Pattern.compile("([0-9.]+)([A-Za-z]*)").matcher(quantity.trim());
        assertThat(m.matches()).as(quantity).isTrue();
        BigDecimal unit = switch (m.group(2)) {
            case "" -> BigDecimal.ONE;
            case "M" -> BigDecimal.TEN.pow(6);
            case "G" -> BigDecimal.TEN.pow(9);
            case "Mi", "MiB" -> BigDecimal.valueOf(MIB);
            case "Gi", "GiB" -> BigDecimal.valueOf(GIB);
            default -> throw new IllegalArgumentException(quantity);
        };
        return new BigDecimal(m.group(1)).multiply(unit).setScale(0, RoundingMode.FLOOR).longValueExact();
    }

    /**
     * The application's configuration flattened to dotted keys: the jar's defaults
     * (src/main/resources/application.{properties,yml}), then the root application.yml that overrides them.
     */
    private static Map<String, String> applicationConfig() throws IOException {
        Map<String, String> config = new LinkedHashMap<>();
        Path properties = Path.of("src", "main", "resources", "application.properties");
        if (Files.exists(properties)) {
            Properties p = new Properties();
            try (var reader = Files.newBufferedReader(properties)) {
                p.load(reader);
            }
            p.forEach((k, v) -> config.put((String) k, (String) v));
        }
        for (Path yml : List.of(Path.of("src", "main", "resources", "application.yml"), Path.of("application.yml"))) {
            if (Files.exists(yml)) {
                for (Object doc : new Yaml().loadAll(Files.readString(yml))) {
                    if (doc instanceof Map<?, ?> tree) {
                        flatten("", tree, config);
                    }
                }
            }
        }
        return config;
    }

    private static void flatten(String prefix, Map<?, ?> tree, Map<String, String> into) {
        tree.forEach((k, v) -> {
            String key = prefix.isEmpty() ? String.valueOf(k) : prefix + "." + k;
            if (v instanceof Map<?, ?> child) {
                flatten(key, child, into);
            } else {
                into.put(key, Objects.toString(v));
            }
        });
    }

    /** {@code ${PORT:8080}} → {@code 8080}; a plain value stays as it is. */
    private static String withDefault(String value) {
        Matcher m = Pattern.compile("\\$\\{[^:}]+:([^}]*)}").matcher(value);
        return m.matches() ? m.group(1) : value;
    }
}

package io.proofline.service.config;

import io.proofline.service.DataDirectory;
import io.proofline.service.InstanceName;
import io.proofline.service.circuits.KeyCache;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.memory.FinishedJobsHeap;
import io.proofline.engine.memory.FixedMemory;
import io.proofline.engine.memory.MemoryPlan;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.memory.WitnessHeapShare;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.gpu.GpuConfig;
import io.proofline.gpu.GpuProverBackend;
import io.proofline.snark.prover.CpuProverBackend;
import io.proofline.snark.prover.DeviceProverBackend;
import io.proofline.snark.prover.ProverBackends;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.proofline.service.tenants.TenantPolicies;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;
import org.springframework.util.unit.DataSize;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.time.Instant;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Converts the {@code proofline.*} properties into the core's immutable {@link EngineConfig} and assembles the
 * engine: one memory budget and buffer tracker shared by the engine and the key cache, the Groth16 adapter, and
 * the devices ({@link DeviceAssembly}: logical GPU devices with the CPU backend as fallback when a GPU backend is
 * present and enabled, else the CPU backend alone).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({MemoryProperties.class, PipelineProperties.class, GpuProperties.class,
        StoreProperties.class, SecurityProperties.class, ProoflineProperties.class,
        DemoProperties.class, WitnessProperties.class, RetryProperties.class, RegistrationProperties.class,
        TenantsProperties.class, UploadProperties.class})
public class EngineConfiguration {

    private static final Logger LOG = LoggerFactory.getLogger(EngineConfiguration.class);

    @Bean
    TenantPolicies tenantPolicies(TenantsProperties tenants) {
        TenantPolicies policies = tenants.policies();
        policies.configured().forEach((key, policy) -> LOG.info("API key {}: {}", key, policy));
        return policies;
    }

    @Bean
    WitnessHeapShare witnessHeapShare(PipelineProperties pipeline, WitnessProperties witness,
                                      RegistrationProperties registration) {
        int workers = pipeline.synthesisWorkers() > 0 ? pipeline.synthesisWorkers()
                : EngineConfig.defaultSynthesisWorkers();
        // registrations load their wasm at most registration.concurrent at once (CircuitService)
        WitnessHeapShare share = FixedMemory.witnessShareOfThisJvm(workers, registration.concurrent(),
                witness.maxMemory().toBytes());
        LOG.info("witness calculators: {}", share.describe());
        if (share.lowered()) {
            LOG.warn("proofline.witness.max-memory × the witness-calculator instances does not fit 1/{} of the max heap:"
                    + " each instance is capped at {} MiB", WitnessHeapShare.HEAP_FRACTION, share.perInstanceBytes() >> 20);
        }
        return share;
    }

    @Bean
    EngineConfig engineConfig(MemoryProperties memory, PipelineProperties pipeline, GpuProperties gpu,
                              ProoflineProperties proofline, DeviceBackends backends, RetryProperties retry,
                              WitnessHeapShare witnessShare) {
        long finishedJobs = FinishedJobsHeap.of(Runtime.getRuntime().maxMemory(),
                memory.finishedJobs() == null ? 0 : memory.finishedJobs().toBytes());
        FixedMemory fixed = FixedMemory.ofThisJvm(memory.maxThreads(), cudaContexts(gpu, backends),
                memory.margin().toBytes(), witnessShare.totalBytes(), finishedJobs);
        MemoryPlan plan = MemoryPlan.detect(bytes(memory.limit()), fixed, bytes(memory.budget()));
        LOG.info("memory: {}", plan.describe());
        if (plan.lowered()) {
            LOG.warn("proofline.memory.budget is larger than the memory limit leaves after the fixed part: lowered to {} MiB",
                    plan.budgetBytes() >> 20);
        }
        EngineConfig.Builder b = EngineConfig.builder()
                .memoryPlan(plan)
                .queueCapacity(pipeline.queueCapacity())
                .handoffCapacity(pipeline.handoffCapacity())
                .finalizerThreads(pipeline.finalizerThreads())
                .workersPerDevice(gpu.workersPerDevice())
                .verifyProofs(proofline.verifyProofs())
                .queueFullRetryAfter(pipeline.retryAfter())
                .admissionWait(retry.admissionWait())
                .stepTimeout(pipeline.stepTimeout())
                .finishedJobsBytes(finishedJobs);
        if (pipeline.synthesisWorkers() > 0) {
            b.synthesisWorkers(pipeline.synthesisWorkers());
        }
        EngineConfig config = b.build();
        LOG.info("engine: budget {} MiB, {} synthesis workers, queue {}, {} finalizer threads",
                config.budgetBytes() >> 20, config.synthesisWorkers(), config.queueCapacity(), config.finalizerThreads());
        return config;
    }

    private static OptionalLong bytes(DataSize size) {
        return size == null ? OptionalLong.empty() : OptionalLong.of(size.toBytes());
    }

    /** CUDA contexts the process holds: one per physical GPU its logical GPU devices use. */
    private static int cudaContexts(GpuProperties gpu, DeviceBackends backends) {
        long gpuDevices = backends.byDevice().values().stream().filter(b -> b.name().equals("gpu")).count();
        if (gpuDevices == 0) {
            return 0;
        }
        return gpu.devices().isEmpty() ? (int) gpuDevices : (int) gpu.devices().stream().distinct().count();
    }

    @Bean
    MemoryBudget memoryBudget(EngineConfig config) {
        return new MemoryBudget(config.budgetBytes());
    }

    @Bean
    BufferTracker bufferTracker() {
        return new BufferTracker();
    }

    /**
     * The data directory, its {@code tmp/} swept of what a crash left there. The sweep runs while the context is
     * built, before the server takes a request, so none of this instance's entries can be in use yet.
     */
    @Bean
    public DataDirectory dataDirectory(StoreProperties store, InstanceName instance, Environment environment) {
        DataDirectory data = new DataDirectory(store.dataDir(), instance.value());
        int swept = data.sweepTmp(exclusiveDatabase(environment.getProperty("spring.datasource.url", "")),
                store.staleTmpAfter(), Instant.now());
        if (swept > 0) {
            LOG.info("removed {} stale entries from {}", swept, data.tmp());
        }
        return data;
    }

    /**
     * Whether the database URL is H2 embedded in this process: H2 locks its file, so no other instance can share
     * this data directory (a server or {@code AUTO_SERVER} URL can be shared, and so can PostgreSQL).
     */
    public static boolean exclusiveDatabase(String jdbcUrl) {
        String url = jdbcUrl.toLowerCase(java.util.Locale.ROOT);
        return url.startsWith("jdbc:h2:") && !url.startsWith("jdbc:h2:tcp:") && !url.startsWith("jdbc:h2:ssl:")
                && !url.contains("auto_server=true");
    }

    @Bean
    InstanceName instanceName(StoreProperties store) {
        if (store.instanceName() != null && !store.instanceName().isBlank()) {
            return new InstanceName(store.instanceName());
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            host = "localhost";
        }
        return new InstanceName(host + "-" + ManagementFactory.getRuntimeMXBean().getPid());
    }

    @Bean(destroyMethod = "close")
    KeyCache keyCache(DataDirectory data, MemoryBudget budget, BufferTracker tracker, MemoryProperties memory,
                      WitnessProperties witness, WitnessHeapShare witnessShare, DeviceBackends backends) {
        return new KeyCache(data, budget, tracker, memory.keyIdleTimeout(),
                witness.calculatorOptions(witnessShare.perInstanceBytes()),
                backends.withDevices());
    }

    @Bean
    DeviceBackends deviceBackends(GpuProperties gpu) {
        GpuConfig gpuConfig = gpu.toConfig();
        Optional<DeviceProverBackend> gpuBackend = gpu.enabled() ? Optional.of(new GpuProverBackend(gpuConfig))
                : Optional.empty();
        // A GPU backend on the class path is used only where a GPU answers (CI and laptops have none).
        gpuBackend.flatMap(DeviceProverBackend::unavailableReason)
                .ifPresent(reason -> LOG.info("GPU backend not used: {}", reason));
        gpuBackend = gpuBackend.filter(b -> b.unavailableReason().isEmpty());
        DeviceBackends backends = DeviceAssembly.assemble(gpu.devices(), gpuBackend,
                gpuConfig.deviceMemoryBudgetBytes(), gpu.cpuFallback(),
                new CpuProverBackend());
        LOG.info("proving devices: {} (backends available: {})", backends.devices(), ProverBackends.names());
        return backends;
    }

    @Bean(destroyMethod = "")
    ProvingEngine provingEngine(EngineConfig config, MemoryBudget budget, BufferTracker tracker, KeyCache keys,
                                DeviceBackends backends) {
        Groth16PartitionProver prover = new Groth16PartitionProver(keys, backends.byDevice());
        return ProvingEngine.builder(config, prover).budget(budget).tracker(tracker).keys(keys)
                .devices(backends.devices()).start();
    }
}

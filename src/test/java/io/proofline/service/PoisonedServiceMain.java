package io.proofline.service;

import io.proofline.service.config.DeviceBackends;
import io.proofline.service.circuits.KeyCache;

import io.proofline.ProoflineApplication;
import io.proofline.engine.memory.BufferAllocator;
import io.proofline.engine.memory.BufferTracker;
import io.proofline.engine.CircuitRef;
import io.proofline.engine.EngineConfig;
import io.proofline.engine.memory.MemoryBudget;
import io.proofline.engine.memory.PartitionFootprint;
import io.proofline.engine.PartitionProver;
import io.proofline.engine.PartitionWork;
import io.proofline.engine.ProofOutput;
import io.proofline.engine.device.ProvingDevice;
import io.proofline.engine.ProvingEngine;
import io.proofline.engine.groth16.Groth16PartitionProver;
import io.proofline.engine.groth16.StartedProof;
import io.proofline.engine.groth16.SynthesizedPartition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.config.InstantiationAwareBeanPostProcessor;
import org.springframework.boot.SpringApplication;

/**
 * The service as {@code proofline serve} starts it, with one test-only circuit that is poison: synthesizing a partition
 * of the circuit whose id is the system property {@value #POISON} halts the JVM at once ({@link Runtime#halt}: no
 * shutdown hook, no graceful anything), as a job that crashes its instance (a native crash, an OOM kill) would. For the
 * crash-blame tests ({@link ChaosTest}, {@link PoisonJobAcrossRestartTest}); the product has no such setting. The engine
 * is the service's own, built from the service's beans, its prover wrapped.
 */
public final class PoisonedServiceMain {

    /** The system property naming the poison circuit's id. */
    static final String POISON = "proofline.test.poison-circuit";
    /** The exit status of a JVM the poison halted. */
    static final int HALTED = 134;

    private PoisonedServiceMain() {
    }

    public static void main(String[] args) {
        String poison = System.getProperty(POISON, "");
        SpringApplication app = new SpringApplication(ProoflineApplication.class);
        app.addInitializers(context -> {
            ConfigurableListableBeanFactory beans = context.getBeanFactory();
            beans.addBeanPostProcessor(new InstantiationAwareBeanPostProcessor() {
                @Override
                public Object postProcessBeforeInstantiation(Class<?> beanClass, String beanName) {
                    return beanName.equals("provingEngine") ? engine(beans, poison) : null;
                }
            });
        });
        app.run(args);
    }

    /** What {@code EngineConfiguration#provingEngine} builds, the prover wrapped in {@link Poisoned}. */
    private static ProvingEngine engine(ConfigurableListableBeanFactory beans, String poison) {
        KeyCache keys = beans.getBean(KeyCache.class);
        DeviceBackends backends = beans.getBean(DeviceBackends.class);
        Groth16PartitionProver prover = new Groth16PartitionProver(keys, backends.byDevice());
        return ProvingEngine.builder(beans.getBean(EngineConfig.class), new Poisoned(prover, poison))
                .budget(beans.getBean(MemoryBudget.class)).tracker(beans.getBean(BufferTracker.class)).keys(keys)
                .devices(backends.devices()).start();
    }

    /** The service's prover, except that synthesizing a partition of the poison circuit halts the JVM. */
    private record Poisoned(Groth16PartitionProver prover, String poison)
            implements PartitionProver<SynthesizedPartition, StartedProof> {

        @Override
        public PartitionFootprint footprint(CircuitRef circuit) {
            return prover.footprint(circuit);
        }

        @Override
        public SynthesizedPartition synthesize(PartitionWork work, BufferAllocator allocator) throws Exception {
            if (work.circuit().id().equals(poison)) {
                System.err.println("poison: synthesizing " + work.job() + "#" + work.partition() + " halts the JVM");
                Runtime.getRuntime().halt(HALTED);
            }
            return prover.synthesize(work, allocator);
        }

        @Override
        public long lateAbcBytes(ProvingDevice device, CircuitRef circuit) {
            return prover.lateAbcBytes(device, circuit);
        }

        @Override
        public StartedProof proveStart(ProvingDevice device, SynthesizedPartition synthesized,
                                       BufferAllocator allocator) throws Exception {
            return prover.proveStart(device, synthesized, allocator);
        }

        @Override
        public ProofOutput proveFinish(ProvingDevice device, StartedProof pending) throws Exception {
            return prover.proveFinish(device, pending);
        }

        @Override
        public boolean verify(CircuitRef circuit, ProofOutput proof) throws Exception {
            return prover.verify(circuit, proof);
        }
    }
}

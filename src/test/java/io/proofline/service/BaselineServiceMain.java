package io.proofline.service;

import io.proofline.ProoflineApplication;
import io.proofline.engine.EngineConfig;
import io.proofline.lab.pipeline.BaselineAdmission;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;

/**
 * The service with the lab's {@link BaselineAdmission} (the pre-fix design, DESIGN §1), for
 * {@link MemoryCgroupTest} only: the product has no setting for it. Everything else is the service as
 * {@code proofline serve} starts it; the policy is swapped into the {@link EngineConfig} bean as it is made.
 */
public final class BaselineServiceMain {

    private BaselineServiceMain() {
    }

    public static void main(String[] args) {
        SpringApplication app = new SpringApplication(ProoflineApplication.class);
        app.addInitializers(context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof EngineConfig c ? baseline(c) : bean;
            }
        }));
        app.run(args);
    }

    static EngineConfig baseline(EngineConfig c) {
        return new EngineConfig(c.budgetBytes(), c.memoryPlan(), c.synthesisWorkers(), c.queueCapacity(),
                c.handoffCapacity(), c.finalizerThreads(), c.verifyProofs(), c.workersPerDevice(),
                BaselineAdmission.INSTANCE, c.breakerMinimumCalls(), c.deviceRetryAfter(), c.queueFullRetryAfter(),
                c.admissionWait(), c.stepTimeout(), c.finishedJobsBytes());
    }
}

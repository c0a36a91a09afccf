package io.proofline.lab.pipeline;

import io.proofline.ProoflineApplication;
import io.proofline.cli.Cli;
import io.proofline.engine.EngineConfig;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.event.ContextClosedEvent;

import java.io.PrintStream;
import java.util.concurrent.CountDownLatch;

/**
 * {@code serve-baseline}: the service exactly as {@code serve} starts it, but with the lab's {@link BaselineAdmission}
 * (the pre-fix design, DESIGN §1) swapped into the {@link EngineConfig} bean as it is made. The product has no setting
 * for it; this is how the memory-limit tests (a cgroup, a container started with {@code --memory}) show the seed's
 * OOM beside the budget, with the same launcher, heap rule and configuration ({@code bin/proofline serve-baseline},
 * the lab jar on the class path). The command returns when the context closes (SIGTERM: Spring's graceful shutdown).
 */
public final class BaselineServeCommand implements Cli.Command {

    @Override
    public String usage() {
        return "serve-baseline [--spring.property=value ...]: the service with the lab's BASELINE admission (pre-fix, "
                + "no reservation, unbounded hand-off); for the OOM tests only";
    }

    @Override
    public int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        ConfigurableApplicationContext context = start(args);
        CountDownLatch closed = new CountDownLatch(1);
        context.addApplicationListener(event -> {
            if (event instanceof ContextClosedEvent) {
                closed.countDown();
            }
        });
        if (context.isActive()) {
            closed.await();
        }
        return 0;
    }

    /** Starts the service with the baseline policy; answers its context. */
    public static ConfigurableApplicationContext start(String[] args) {
        SpringApplication app = new SpringApplication(ProoflineApplication.class);
        app.addInitializers(context -> context.getBeanFactory().addBeanPostProcessor(new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String name) {
                return bean instanceof EngineConfig c ? baseline(c) : bean;
            }
        }));
        return app.run(args);
    }

    static EngineConfig baseline(EngineConfig c) {
        return new EngineConfig(c.budgetBytes(), c.memoryPlan(), c.synthesisWorkers(), c.queueCapacity(),
                c.handoffCapacity(), c.finalizerThreads(), c.verifyProofs(), c.workersPerDevice(),
                BaselineAdmission.INSTANCE, c.breakerMinimumCalls(), c.deviceRetryAfter(), c.queueFullRetryAfter(),
                c.admissionWait(), c.stepTimeout(), c.finishedJobsBytes());
    }
}

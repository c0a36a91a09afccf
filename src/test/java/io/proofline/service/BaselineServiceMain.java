package io.proofline.service;

import io.proofline.lab.pipeline.BaselineServeCommand;

/**
 * The service with the lab's {@code BaselineAdmission} (the pre-fix design, DESIGN §1) as a main class, for
 * {@link MemoryCgroupTest}, which starts it on the test class path: the lab's {@code serve-baseline} command
 * ({@link BaselineServeCommand}), which the container test starts through {@code bin/proofline serve-baseline}.
 */
public final class BaselineServiceMain {

    private BaselineServiceMain() {
    }

    public static void main(String[] args) {
        BaselineServeCommand.start(args);
    }
}

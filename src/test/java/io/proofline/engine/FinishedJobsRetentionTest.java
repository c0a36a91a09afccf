package io.proofline.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the engine keeps of finished jobs is bounded by bytes, not by count: failures carrying a megabyte of message
 * are kept cut to {@link JobFailure#RETAINED_MESSAGE_CHARS} with a note, the oldest jobs are forgotten first, and the
 * kept bytes never pass {@link EngineConfig#finishedJobsBytes()}. The live result still had the whole cause.
 */
class FinishedJobsRetentionTest {

    private static final long CAP = 256 * 1024;
    private static final String MEGABYTE_LOG = "A".repeat(1 << 20);

    @Test
    void failuresAreCutAndTheOldestJobsForgottenWithinTheCap() throws Exception {
        try (EngineFixture f = new EngineFixture(4, b -> b.finishedJobsBytes(CAP))) {
            f.prover.onSynthesize = (work, device) -> {
                if (work.partition() == 1) {
                    throw new IllegalStateException("the circuit logged " + MEGABYTE_LOG);
                }
            };
            List<JobId> ids = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                JobId id = f.engine.submit(EngineFixture.job(i % 2 == 0 ? 2 : 1));
                ids.add(id);
                JobResult live = f.await(id);
                if (i % 2 == 0) {
                    assertThat(live.state()).isEqualTo(JobState.FAILED);
                    assertThat(live.failure().orElseThrow().cause().getMessage()).hasSizeGreaterThan(1 << 20);
                } else {
                    assertThat(live.state()).isEqualTo(JobState.DONE);
                }
                assertThat(f.engine.retainedFinishedBytes()).isLessThanOrEqualTo(CAP);
            }

            JobId lastFailed = ids.get(198);
            JobFailure kept = f.engine.status(lastFailed).failure().orElseThrow();
            assertThat(kept.cause()).isInstanceOf(RetainedFailure.class);
            assertThat(((RetainedFailure) kept.cause()).originalClass()).isEqualTo(IllegalStateException.class.getName());
            assertThat(kept.message()).startsWith("partition 1 failed in SYNTHESIZING: the circuit logged AAAA")
                    .contains("more characters not kept")
                    .hasSizeLessThan(JobFailure.RETAINED_MESSAGE_CHARS + 200);
            assertThat(f.engine.result(lastFailed).join().failure().orElseThrow().cause())
                    .isInstanceOf(RetainedFailure.class);

            JobResult lastDone = f.engine.result(ids.get(199)).join();
            assertThat(lastDone.state()).isEqualTo(JobState.DONE);
            assertThat(lastDone.proofs()).hasSize(1);
            assertThat(f.engine.status(ids.get(199)).state()).isEqualTo(JobState.DONE);

            // the cap holds about 30 such failures: the first jobs are long forgotten
            assertThatThrownBy(() -> f.engine.status(ids.getFirst())).isInstanceOf(UnknownJobException.class);
            assertThat(f.engine.cancel(ids.get(199))).isFalse();
            f.assertAllReleased();
        }
    }

    @Test
    void aFailureThatMayPassIsKeptAsOneThatMayPass() {
        JobFailure failure = new JobFailure(0, Stage.QUEUED, new IllegalStateException("wrapped",
                new RetryableException("cannot read the key now: " + "x".repeat(10_000))));
        JobFailure kept = failure.retained();
        assertThat(kept.cause()).isInstanceOf(RetryableException.class).hasNoCause();
        assertThat(kept.cause().getStackTrace()).isEmpty();
        assertThat(kept.retainedHeapBytes()).isLessThan(3L * JobFailure.RETAINED_MESSAGE_CHARS);
        assertThat(kept.retained()).isSameAs(kept);
    }
}

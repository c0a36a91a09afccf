package io.proofline.service.jobs;

import io.proofline.service.InstanceName;
import io.proofline.service.config.PipelineProperties;
import io.proofline.service.config.StoreProperties;
import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.task.CompletionHandler;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.FixedDelay;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * The durable job queue on db-scheduler (the plain library; its Spring Boot starter does not support Boot 4). Jobs
 * run on virtual threads, up to {@code proofline.pipeline.job-threads} at once: a run that waits holds no thread, and
 * the order in which partitions are proved is the engine's (priority, then fairness between tenants), not the order in
 * which runs got a thread.
 *
 * <p>Each job is one task instance ({@code prove-job}, instance id = job id, priority = the job's priority). An
 * instance claims due tasks — on PostgreSQL with {@code SELECT … FOR UPDATE SKIP LOCKED} (lock-and-fetch) — and
 * renews its lease by heartbeats while the job runs; when an instance dies, its tasks' heartbeats go stale and
 * another instance revives them after {@code heartbeat-interval × missed-heartbeats}. The scheduler's connection
 * joins Spring transactions, so a job's rows and its task are committed together.
 */
@Configuration(proxyBeanMethods = false)
public class JobSchedulingConfiguration {

    public static final String PROVE_TASK = "prove-job";
    static final String RETENTION_TASK = "retention";

    @Bean
    Task<Void> proveJobTask(JobRunner runner) {
        return Tasks.custom(PROVE_TASK, Void.class)
                .onDeadExecutionRevive()
                .onFailure((complete, ops) -> ops.reschedule(complete, Instant.now().plusSeconds(5)))
                .execute((instance, context) -> switch (runner.run(instance.getId())) {
                    case JobRunner.Outcome.Finished f -> new CompletionHandler.OnCompleteRemove<>();
                    case JobRunner.Outcome.Retry r -> (complete, ops) -> ops.reschedule(complete, r.when());
                });
    }

    @Bean
    RecurringTask<Void> retentionTask(Retention retention) {
        return Tasks.recurring(RETENTION_TASK, FixedDelay.of(Duration.ofMinutes(1)))
                .execute((instance, context) -> retention.run());
    }

    @Bean(destroyMethod = "")
    Scheduler scheduler(DataSource dataSource, Task<Void> proveJobTask, RecurringTask<Void> retentionTask,
                        StoreProperties store, PipelineProperties pipeline, InstanceName name) {
        DataSource transactional = new TransactionAwareDataSourceProxy(dataSource);
        SchedulerBuilder builder = Scheduler.create(transactional, List.of(proveJobTask))
                .startTasks(retentionTask)
                .schedulerName(new SchedulerName.Fixed(name.value()))
                .threads(pipeline.jobThreads())
                // a job's run mostly waits (for its partitions in the engine's queue, for the engine's result): on
                // virtual threads a waiting job holds no platform thread, so that every job this instance takes is
                // in the engine's fair queue at once and a new job's partitions enter it at once (issue #33)
                .executorService(Executors.newVirtualThreadPerTaskExecutor())
                .pollingInterval(store.pollingInterval())
                .heartbeatInterval(store.heartbeatInterval())
                .missedHeartbeatsLimit(store.missedHeartbeats())
                .shutdownMaxWait(pipeline.shutdownGrace().plusSeconds(10))
                .enablePriority()
                .enableImmediateExecution();
        if (isPostgres(dataSource)) {
            builder.pollUsingLockAndFetch(0.5, 1.0);
        }
        return builder.build();
    }

    private static boolean isPostgres(DataSource dataSource) {
        try (Connection c = dataSource.getConnection()) {
            return c.getMetaData().getDatabaseProductName().toLowerCase().contains("postgres");
        } catch (SQLException e) {
            return false;
        }
    }
}

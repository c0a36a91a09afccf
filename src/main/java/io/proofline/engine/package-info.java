/**
 * The proving engine: a memory-budgeted pipeline that turns jobs of 1..P partitions into Groth16 proofs
 * through the {@link io.proofline.engine.PartitionProver} port. No Spring here: the CLI, benchmarks and the
 * GPU harness run it alone; the service wraps it.
 *
 * <h2>Pipeline</h2>
 * <pre>
 *  submit(JobRequest) ── admission: capacity (QueueFullException → 429), fits budget (PartitionTooLarge)
 *        │
 *        ▼
 *  WorkQueue  priority (CRITICAL..LOW), then older job, then lower partition          [QUEUED]
 *        │   Dispatcher (one supervised thread): synthesis slot + W + ABC + PENDING and, if not
 *        │   resident, the circuit's key, reserved in one step (KeyResidency); evicts unused keys,
 *        │   waits at most admissionWait, then ends the job retryably  ← backpressure
 *        ▼
 *  synthesis pool (synthesisWorkers)  PartitionProver.synthesize → WITNESS, ABC     [SYNTHESIZING]
 *        │   bounded Handoff (handoffCapacity); the reservation travels with the partition
 *        ▼                                                                        [AWAITING_DEVICE]
 *  proving workers: least-loaded device whose Bulkhead has room and CircuitBreaker is closed
 *        │   proveStart(device)  → PENDING; ABC freed, ABC bytes released               [PROVING]
 *        │   DeviceFaultException → breaker counts it, partition back to the hand-off, other device
 *        ▼
 *  finalizer pool (finalizerThreads)  proveFinish(same device) → all buffers freed,     [FINALIZING]
 *        │   reservation closed; then verify (verifyProofs)                             [VERIFYING]
 *        ▼
 *  JobResult (future)                                                     [DONE | FAILED | CANCELLED]
 * </pre>
 *
 * <h2>A partition's reservation</h2>
 * <pre>
 *  bytes ▲  W+ABC+PENDING ┌───────────────────────────┐
 *        │                │ reserved before synthesis │ ABC released when proveStart returns
 *        │  W+PENDING     │                           └─────────────────────┐
 *        │                │                                                 │ close() after proveFinish
 *        └────────────────┴─────────────┴──────────────┴────────────────────┴──────────► time
 *                 dispatch     synthesize     await GPU      prove start        finish, verify
 * </pre>
 * Every way out of the pipeline (done, failed, cancelled in any stage, deadline, shutdown) goes through one
 * place that frees the partition's buffers and closes its reservation exactly once. A failed partition fails
 * its job and the job's other partitions are cancelled. Exactly one party owns a partition at a time; others
 * can only request cancellation, which interrupts the owner.
 *
 * <h2>Counting</h2>
 * The {@link io.proofline.engine.memory.BufferTracker} counts every buffer by
 * {@link io.proofline.engine.memory.BufferClass} × {@link io.proofline.engine.Stage}, with RSS, heap, off-heap bytes,
 * the budget, devices and queue depths, as an immutable {@link io.proofline.engine.PipelineSnapshot}, and logs
 * it at DEBUG at each lifecycle event.
 *
 * <p>What a partition reserves is the {@link io.proofline.engine.memory.AdmissionPolicy}: the product's is
 * {@code BUDGETED}; the lab passes the pre-fix design of DESIGN §1 (no byte reservation, unbounded hand-off) through
 * {@link io.proofline.engine.EngineConfig.Builder#admission} to show what the budget prevents.
 */
package io.proofline.engine;

/**
 * The proving engine: a memory-budgeted pipeline that turns jobs of 1..P partitions into Groth16 proofs through the
 * {@link io.proofline.engine.PartitionProver} port, which {@link io.proofline.engine.groth16.Groth16PartitionProver}
 * implements on the snark prover's backends. No Spring: the service and the lab's {@code bench pipeline} drive the
 * same {@link io.proofline.engine.ProvingEngine}. This is the reference picture of the pipeline and of a partition's
 * reservation; docs/ARCHITECTURE.md and docs/DESIGN.md point here instead of drawing their own.
 *
 * <h2>Pipeline</h2>
 * <pre>
 *  submit(JobRequest)      all partitions queued, or none: QueueFullException (429),
 *     │                    PartitionTooLargeException (footprint + key never fit the budget)
 *     ▼
 *  WorkQueue               priority, then older job, then lower partition               QUEUED
 *     │  Dispatcher, one thread (DispatcherSupervisor restarts it): for the head, a synthesis slot,
 *     │  then admittedBytes(footprint) + the circuit's key if not resident, in one step (KeyResidency);
 *     │  short of memory: evict unused twiddle tables, then unused keys, then wait; past admissionWait
 *     │  the job ends with AdmissionTimeoutException (retryable)          ← the backpressure
 *     ▼
 *  SynthesisWorkers        synthesisWorkers threads: witness into WITNESS,               SYNTHESIZING
 *     │                    a/b/c into ABC where the footprint has them
 *     │  Handoff: at most handoffCapacity partitions, in priority order; a full one holds
 *     │  the worker, and with it its synthesis slot                                       AWAITING_DEVICE
 *     ▼
 *  ProveStartWorkers       Σ workersPerDevice threads. DevicePool: the least-busy device whose
 *     │                    Bulkhead has room, whose CircuitBreaker lets it through and that has not
 *     │                    faulted on (or lately refused) this partition; a fallback device (the CPU
 *     │                    beside GPUs) only when no other can take it.
 *     │                    Late a/b/c reserved if that device needs them; proveStart      PROVING
 *     │                    then ABC freed and its bytes returned.
 *     │  device fault or no room on the device → back to the Handoff, placed elsewhere
 *     ▼
 *  FinalizeWorkers         finalizerThreads: proveFinish on the device that started it;   FINALIZING
 *     │                    then every buffer freed, the reservation and the key's use closed;
 *     │                    then verify (verifyProofs, or the job's own choice)          VERIFYING
 *     ▼
 *  JobResult future                                                        DONE | FAILED | CANCELLED
 * </pre>
 *
 * <h2>A partition's reservation</h2>
 * {@code W} = WITNESS ({@code m × 32} B), {@code ABC} = a, b, c ({@code 3 × N × 32} B), {@code P} = PENDING
 * (4 KiB): {@link io.proofline.engine.memory.PartitionFootprint#groth16}. What a partition reserves at dispatch is its
 * {@link io.proofline.engine.PartitionProver#footprint} (plus the key's bytes when the key is not resident); which
 * classes that holds depends on where a/b/c are evaluated.
 * <pre>
 *  GPU, a/b/c on the device (proofline.gpu.abc=device, the default): footprint W + P. Synthesis
 *  computes the witness only; prove start evaluates a/b/c on the GPU, in device scratch, from the
 *  key's constraint rows resident there. No host a/b/c ever exist.
 *
 *    bytes ▲
 *     W+P ┤   ┌────────────────────────────────────────────────────────┐
 *         └───┴─────────────┴──────────────┴──────────────┴────────────┴────────► time
 *   dispatch    synthesize    await device    prove start     finish      verify
 *
 *  The CPU fallback beside those GPUs: footprint W + P as above; placed on the CPU, the partition
 *  reserves ABC late (lateAbcBytes), evaluates a/b/c in prove start and returns them after.
 *
 *    bytes ▲
 * W+P+ABC ┤                                ┌──────────────┐
 *     W+P ┤   ┌────────────────────────────┘              └────────────┐
 *         └───┴─────────────┴──────────────┴──────────────┴────────────┴────────► time
 *   dispatch    synthesize    await device    prove start     finish      verify
 *
 *  GPU with a/b/c on the host (proofline.gpu.abc=host), and the CPU alone: footprint W + ABC + P.
 *  Synthesis evaluates a/b/c into ABC; prove start uploads them (GPU) or transforms them in place (CPU).
 *
 *    bytes ▲
 * W+ABC+P ┤   ┌───────────────────────────────────────────┐
 *     W+P ┤   │                                           └────────────┐
 *         └───┴─────────────┴──────────────┴──────────────┴────────────┴────────► time
 *   dispatch    synthesize    await device    prove start     finish      verify
 * </pre>
 * <ul>
 *   <li>The footprint is one per engine, not per device: as soon as one backend evaluates a/b/c on its device,
 *       {@link io.proofline.engine.groth16.Groth16PartitionProver} leaves ABC out of every partition's footprint, and a
 *       device that reads a/b/c from the host gets them through
 *       {@link io.proofline.engine.PartitionProver#lateAbcBytes}.</li>
 *   <li>Late a/b/c are reserved by the proving worker after placement and before prove start: footprint, late bytes
 *       and key must fit the budget together (else {@link io.proofline.engine.PartitionTooLargeException}); short of
 *       memory it evicts unused twiddle tables, then unused keys, then waits at most {@code admissionWait}
 *       ({@link io.proofline.engine.AdmissionTimeoutException}). They are freed and returned when prove start ends,
 *       faults or is refused for room, and reserved again on the next device that needs them.</li>
 *   <li>Host a/b/c from synthesis stay with the partition through a device fault or a refusal for room (it is placed
 *       again with them) and are freed, with their bytes, once a prove start succeeds.</li>
 *   <li>PENDING is reserved but no PENDING buffer is allocated today: the pending proof's sums are a few hundred
 *       bytes of heap, and the witness it keeps alive for prove finish is counted as WITNESS.</li>
 *   <li>Verification runs after the reservation is closed; it uses the heap and the cached verifying key only.</li>
 *   <li>Beside partitions, the budget holds the cached keys ({@code KEY_HOST}: reserved with the first partition of
 *       their circuit, in use while admitted partitions of it are unfinished, evictable once in no use) and the CPU
 *       prover's NTT twiddle tables ({@code TWIDDLES}: taken only when free, at most a quarter of the budget, evicted
 *       before keys). Device memory ({@code KEY_DEVICE}, {@code SCRATCH_DEVICE}) is not the host budget: each GPU
 *       backend bounds its own resident keys and counts its buffers.</li>
 * </ul>
 *
 * <h2>Ownership and the ways out</h2>
 * Exactly one thread owns a partition at a time; others can only request its cancellation, which interrupts the
 * owner, and a partition cancelled while it waited for placement or late a/b/c starts no prove. Every way out (done,
 * failed, cancelled in any stage, deadline, shutdown) goes through one place that frees the partition's buffers and
 * closes its reservation exactly once. A failed partition fails its job, and the job's other partitions are cancelled.
 *
 * <h2>Counting</h2>
 * The {@link io.proofline.engine.memory.BufferTracker} counts every buffer by
 * {@link io.proofline.engine.memory.BufferClass} × {@link io.proofline.engine.Stage} (devices' buffers read from
 * their {@link io.proofline.engine.device.DeviceMemory}), with RSS, heap, off-heap bytes, the budget, devices and
 * queue depths, as an immutable {@link io.proofline.engine.PipelineSnapshot}, and logs it at DEBUG at each lifecycle
 * event.
 *
 * <p>What the dispatcher and the proving workers reserve, and how many synthesized partitions may wait, is the
 * {@link io.proofline.engine.memory.AdmissionPolicy}: the product's is
 * {@link io.proofline.engine.memory.AdmissionPolicy#BUDGETED}; the lab passes the pre-fix design of DESIGN §1 (no
 * reservation, unbounded hand-off) through {@link io.proofline.engine.EngineConfig.Builder#admission} to show what the
 * budget prevents.
 */
package io.proofline.engine;

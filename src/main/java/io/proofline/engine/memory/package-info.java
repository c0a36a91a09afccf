/**
 * The engine's memory: the {@link io.proofline.engine.memory.MemoryLimit} and how it is split into the declared
 * {@link io.proofline.engine.memory.FixedMemory} (the max heap by the {@link io.proofline.engine.memory.HeapRule},
 * with the witness calculators' share of it, metaspace, code cache, thread stacks, CUDA contexts, a margin) and the
 * {@link io.proofline.engine.memory.MemoryBudget} ({@link io.proofline.engine.memory.MemoryPlan}); the
 * {@link io.proofline.engine.memory.Reservation}s taken from the budget before anything large is allocated
 * ({@link io.proofline.engine.memory.AdmissionPolicy}); and the {@link io.proofline.engine.memory.BufferTracker} that
 * counts every tracked off-heap buffer by class and stage beside the process's own figures. The pipeline
 * (engine.pipeline) is built from these; nothing here reaches into it.
 */
package io.proofline.engine.memory;

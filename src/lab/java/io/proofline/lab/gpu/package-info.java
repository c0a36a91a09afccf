/**
 * The GPU backend's timing harness: {@code bench gpu}'s table ({@link io.proofline.lab.gpu.GpuBenchmark}: MSMs, NTTs
 * and whole proofs against DESIGN §8's bounds), {@code gpu-bench}'s kernel timings
 * ({@link io.proofline.lab.gpu.KernelTimings}), and the prove start's step times, which it records through the
 * product's seam ({@link io.proofline.lab.gpu.ProveStartRecorder}, a
 * {@link io.proofline.gpu.internal.ProveStartProbe}). The only lab package that reaches into
 * {@code io.proofline.gpu.internal}: timing kernels needs their streams, buffers and events.
 */
package io.proofline.lab.gpu;

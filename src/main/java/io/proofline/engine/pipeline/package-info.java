/**
 * The pipeline behind {@link io.proofline.engine.ProvingEngine}: the priority {@code WorkQueue}, the one
 * {@code Dispatcher} that admits the head of the queue with its reservation, the synthesis, prove-start and finalize
 * workers, the bounded {@code Handoff} between synthesis and prove start, device placement ({@code DevicePool}) and the
 * one {@code Lifecycle} every partition leaves through. The picture and the reservation rules are in the engine's
 * package documentation ({@link io.proofline.engine}); only the engine reaches in here (ArchUnit).
 */
package io.proofline.engine.pipeline;

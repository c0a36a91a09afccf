package io.proofline.engine.memory;

/**
 * What the dispatcher took for one partition: its reservation, and its use of its circuit's key (releasing the
 * use lets the key be evicted again once no other partition uses it).
 *
 * @param partition  the partition's footprint, reserved
 * @param releaseKey ends the partition's use of its circuit's key; called once
 */
public record KeyAdmission(Reservation partition, Runnable releaseKey) {
}

package io.proofline.service;

/** This instance's name in the job leases ({@code proofline.store.instance-name}, else host and process id). */
public record InstanceName(String value) {
}

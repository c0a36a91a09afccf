package io.proofline.engine;

/** Job priority: higher first; within one priority the older job first. */
public enum Priority {
    LOW,
    NORMAL,
    HIGH,
    CRITICAL
}

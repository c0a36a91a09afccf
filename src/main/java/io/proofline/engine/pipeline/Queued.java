package io.proofline.engine.pipeline;

import io.proofline.engine.Priority;
import io.proofline.engine.TenantShare;

/** What the {@link WorkQueue} orders: an item of a tenant and a priority, which keeps the place the queue gives it. */
interface Queued {

    Priority priority();

    TenantShare share();

    /** The place given at admission; null before. */
    QueuePlace place();

    /** Called once, by the queue, when the item is admitted. */
    void place(QueuePlace value);
}

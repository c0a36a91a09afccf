package io.proofline.service;

import java.time.Duration;
import java.util.Objects;

/**
 * A tenant's request goes beyond one of its limits (docs/API.md "Per-tenant limits"): 403 for what its key may never
 * do (a priority it is not allowed), 429 for a quota its current usage has reached. The answer names the limit (its
 * property under {@code proofline.tenants}), the limit's value and the tenant's usage.
 */
public final class QuotaExceededException extends ServiceException {

    private final String limit;
    private final Object limitValue;
    private final Object usage;
    private final boolean forbidden;
    private final Duration retryAfter;

    private QuotaExceededException(String field, String message, String limit, Object limitValue, Object usage,
                                   boolean forbidden, Duration retryAfter) {
        super(field, message);
        this.limit = Objects.requireNonNull(limit, "limit");
        this.limitValue = limitValue;
        this.usage = usage;
        this.forbidden = forbidden;
        this.retryAfter = retryAfter;
    }

    /** 403: the key may never do this ({@code usage}: what it asked for). */
    public static QuotaExceededException forbidden(String field, String message, String limit, Object limitValue,
                                                   Object asked) {
        return new QuotaExceededException(field, message, limit, limitValue, asked, true, null);
    }

    /** 429: the key's usage has reached the limit; trying again after some of it is done may succeed. */
    public static QuotaExceededException exhausted(String field, String message, String limit, Object limitValue,
                                                   Object usage, Duration retryAfter) {
        return new QuotaExceededException(field, message, limit, limitValue, usage, false,
                Objects.requireNonNull(retryAfter, "retryAfter"));
    }

    /** The limit's property, relative to {@code proofline.tenants.<key>} ({@code max-jobs-in-flight}, ...). */
    public String limit() {
        return limit;
    }

    public Object limitValue() {
        return limitValue;
    }

    /** The tenant's usage of what the limit bounds, the request included where it adds to it. */
    public Object usage() {
        return usage;
    }

    /** 403 rather than 429. */
    public boolean forbidden() {
        return forbidden;
    }

    /** For a 429: when trying again makes sense; null for a 403. */
    public Duration retryAfter() {
        return retryAfter;
    }
}

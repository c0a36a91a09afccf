package io.proofline.service.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;

/**
 * {@code proofline.registration.*}: how circuit registrations check their proving keys' points, which they do off
 * the request thread (the circuit is REGISTERING meanwhile).
 *
 * @param validationThreads threads checking one key's points (chunks of each section in turn); 0 means one per
 *                          available processor
 * @param concurrent        registrations checked at once; more wait in turn, REGISTERING
 * @param answerWithin      how long {@code POST /api/v1/circuits} waits for the check before answering
 *                          {@code 202 Accepted} with the circuit REGISTERING: a small key is answered READY (201), a
 *                          large one at once; 0 answers every new circuit with 202
 */
@ConfigurationProperties("proofline.registration")
public record RegistrationProperties(@DefaultValue("0") int validationThreads, @DefaultValue("1") int concurrent,
                                     @DefaultValue("2s") Duration answerWithin) {

    public static final RegistrationProperties DEFAULTS = new RegistrationProperties(0, 1, Duration.ofSeconds(2));

    public RegistrationProperties {
        if (validationThreads < 0) {
            throw new IllegalArgumentException("proofline.registration.validation-threads must not be negative, not "
                    + validationThreads);
        }
        if (concurrent < 1) {
            throw new IllegalArgumentException("proofline.registration.concurrent must be at least 1, not "
                    + concurrent);
        }
        if (answerWithin == null || answerWithin.isNegative()) {
            throw new IllegalArgumentException("proofline.registration.answer-within must not be negative, not "
                    + answerWithin);
        }
    }

    /** The validation threads, 0 resolved to the available processors. */
    public int threads() {
        return validationThreads > 0 ? validationThreads : Runtime.getRuntime().availableProcessors();
    }
}

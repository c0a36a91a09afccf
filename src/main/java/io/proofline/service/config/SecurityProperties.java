package io.proofline.service.config;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

import java.time.Duration;
import java.util.List;

/**
 * {@code proofline.security.*}. With no API key (or no admin password) configured, one is generated at start-up
 * and logged once: the service never runs open.
 *
 * @param apiKeys             keys accepted in {@code X-API-Key} on {@code /api/**}
 *                            ({@code PROOFLINE_SECURITY_API_KEYS}, comma-separated)
 * @param adminUser           the console and Actuator user
 * @param adminPassword       its password
 * @param requestsPerSecond   per API key
 * @param metricsUser         a read-only user for Prometheus: it may read {@code /actuator/prometheus} and health only
 * @param metricsPassword     its password; empty: no such user (scrape with the admin's)
 * @param loginAttempts       failed logins (per user, per client address) before a lockout
 * @param loginLockout        the longest lockout; lockouts double from one second up to it
 * @param streamsPerKey       server-sent-event streams one API key (or the console's user) may hold open at once
 * @param streamTimeout       an event stream ends after this (clients reconnect)
 * @param waitsPerKey         job waits ({@code GET /api/v1/jobs/{id}?waitSeconds=N}) one API key may hold parked at once
 */
@ConfigurationProperties("proofline.security")
public record SecurityProperties(@DefaultValue List<String> apiKeys, @DefaultValue("admin") String adminUser,
                                 String adminPassword, @DefaultValue("50") int requestsPerSecond,
                                 @DefaultValue("metrics") String metricsUser, String metricsPassword,
                                 @DefaultValue("5") int loginAttempts,
                                 @DefaultValue("15m") Duration loginLockout,
                                 @DefaultValue("4") int streamsPerKey,
                                 @DefaultValue("30m") Duration streamTimeout,
                                 @DefaultValue("64") int waitsPerKey) {
}

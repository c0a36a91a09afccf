package io.proofline.service;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

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
 */
@ConfigurationProperties("proofline.security")
public record SecurityProperties(@DefaultValue List<String> apiKeys, @DefaultValue("admin") String adminUser,
                                 String adminPassword, @DefaultValue("50") int requestsPerSecond) {
}

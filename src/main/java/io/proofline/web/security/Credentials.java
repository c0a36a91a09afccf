package io.proofline.web.security;

import io.proofline.service.config.SecurityProperties;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The effective API keys and admin password. With none configured, a random key or password is generated and
 * logged once at start-up: the service never runs open.
 */
@Component
public class Credentials {

    private static final Logger LOG = LoggerFactory.getLogger(Credentials.class);
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Set<String> apiKeys;
    private final String adminUser;
    private final String adminPassword;

    Credentials(SecurityProperties properties) {
        List<String> keys = properties.apiKeys().stream().map(String::trim).filter(k -> !k.isEmpty()).toList();
        if (keys.isEmpty()) {
            String generated = random();
            LOG.warn("no API key configured (proofline.security.api-keys / PROOFLINE_SECURITY_API_KEYS); "
                    + "generated one for this run: {}", generated);
            keys = List.of(generated);
        }
        this.apiKeys = Set.copyOf(keys);
        LOG.info("API keys by name (proofline.tenants.keys.<name> sets one key's limits): {}",
                String.join(", ", new java.util.TreeSet<>(keyIds())));
        this.adminUser = properties.adminUser();
        String password = properties.adminPassword();
        if (password == null || password.isBlank()) {
            password = random();
            LOG.warn("no admin password configured (proofline.security.admin-password / "
                    + "PROOFLINE_SECURITY_ADMIN_PASSWORD); generated one for user '{}' for this run: {}",
                    adminUser, password);
        }
        this.adminPassword = password;
    }

    /** Whether {@code key} is one of the API keys (compared in constant time). */
    boolean isApiKey(String key) {
        if (key == null) {
            return false;
        }
        byte[] given = key.getBytes(StandardCharsets.UTF_8);
        boolean found = false;
        for (String k : apiKeys) {
            found |= MessageDigest.isEqual(given, k.getBytes(StandardCharsets.UTF_8));
        }
        return found;
    }

    /** A name for the key that can be logged and used as a rate-limiter id (a hash prefix, not the key). */
    public static String keyId(String key) {
        try {
            byte[] sha = MessageDigest.getInstance("SHA-256").digest(key.getBytes(StandardCharsets.UTF_8));
            return "key-" + HexFormat.of().formatHex(sha, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    Set<String> keyIds() {
        return apiKeys.stream().map(Credentials::keyId).collect(Collectors.toSet());
    }

    /** The names of the API keys ({@link #keyId}), never the keys: what {@code proofline.tenants.keys} is keyed by. */
    public Set<String> keyNames() {
        return keyIds();
    }

    String adminUser() {
        return adminUser;
    }

    String adminPassword() {
        return adminPassword;
    }

    private static String random() {
        byte[] bytes = new byte[24];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}

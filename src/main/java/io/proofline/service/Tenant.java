package io.proofline.service;

import java.util.Objects;

/**
 * Who is asking: an API key (by its logged name, never the key itself) or the admin's console. Jobs and circuits
 * belong to the key that created or registered them; another key is told they do not exist (404), while the console
 * sees and may act on everything. Rows made before tenancy belong to {@link #EVERY_KEY}, as every key could see
 * them then.
 *
 * @param principal the key's name ({@code key-…}) or {@link #CONSOLE_PRINCIPAL}
 */
public record Tenant(String principal) {

    /** The owner of rows from before tenancy: visible to every key. */
    public static final String EVERY_KEY = "*";
    /** Cannot collide with a key's name, which always starts with {@code key-}. */
    static final String CONSOLE_PRINCIPAL = "(console)";
    /** The admin (console, demo load): sees every client's jobs and circuits. */
    public static final Tenant CONSOLE = new Tenant(CONSOLE_PRINCIPAL);

    public Tenant {
        Objects.requireNonNull(principal, "principal");
        if (principal.isBlank() || principal.length() > 200 || principal.equals(EVERY_KEY)) {
            throw new IllegalArgumentException("not a principal: '" + principal + "'");
        }
    }

    /** The tenant of an authenticated API key, by the key's name. */
    public static Tenant apiKey(String keyName) {
        return new Tenant(keyName);
    }

    public boolean isConsole() {
        return CONSOLE_PRINCIPAL.equals(principal);
    }

    /** Whether this tenant may see and act on a row owned by {@code owner}. */
    public boolean mayAccess(String owner) {
        return isConsole() || principal.equals(owner) || EVERY_KEY.equals(owner);
    }
}

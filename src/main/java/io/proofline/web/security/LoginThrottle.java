package io.proofline.web.security;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Slows password guessing on the console's form login and HTTP basic. Failed attempts are counted per user name and
 * per client address; after {@code freeAttempts} failures of either, that user (from every address) or that address
 * (for every user) is locked out, for a time that doubles with each further failure up to {@code maxLockout}.
 * While locked, even the right password is refused, so a guesser learns nothing. A success clears the user's count
 * but not the address's (else a guesser holding one valid login could reset its address between guesses); counts
 * are forgotten once no failure came for twice {@code maxLockout}. Counting per user stops a guesser who spreads
 * over many addresses; counting per address stops one who tries many users. Memory is bounded: each table keeps
 * the most recently seen {@link #MAX_ENTRIES} names, forgetting the least recently seen.
 */
final class LoginThrottle {

    /** Names tracked per table: enough for real users and attackers, small enough to bound the memory. */
    static final int MAX_ENTRIES = 10_000;
    /** The first lockout; each further failure doubles it. */
    static final Duration FIRST_LOCKOUT = Duration.ofSeconds(1);

    private final int freeAttempts;
    private final Duration maxLockout;
    private final Clock clock;
    private final Map<String, Failures> users = lru();
    private final Map<String, Failures> addresses = lru();

    LoginThrottle(int freeAttempts, Duration maxLockout, Clock clock) {
        if (freeAttempts < 1) {
            throw new IllegalArgumentException("login-attempts must be at least 1, was " + freeAttempts);
        }
        if (maxLockout.compareTo(FIRST_LOCKOUT) < 0) {
            throw new IllegalArgumentException("login-lockout must be at least " + FIRST_LOCKOUT + ", was "
                    + maxLockout);
        }
        this.freeAttempts = freeAttempts;
        this.maxLockout = maxLockout;
        this.clock = clock;
    }

    /** How long {@code user} from {@code address} must still wait; {@link Duration#ZERO} when it may try now. */
    synchronized Duration lockedFor(String user, String address) {
        Instant now = clock.instant();
        Duration byUser = remaining(users.get(user), now);
        Duration byAddress = remaining(addresses.get(address), now);
        return byUser.compareTo(byAddress) >= 0 ? byUser : byAddress;
    }

    synchronized void failed(String user, String address) {
        Instant now = clock.instant();
        users.put(user, next(users.get(user), now));
        addresses.put(address, next(addresses.get(address), now));
    }

    synchronized void succeeded(String user) {
        users.remove(user);
    }

    /** Names held in both tables together. */
    synchronized int trackedNames() {
        return users.size() + addresses.size();
    }

    private Failures next(Failures previous, Instant now) {
        boolean forgotten = previous == null || previous.last().plus(maxLockout.multipliedBy(2)).isBefore(now);
        int count = forgotten ? 1 : previous.count() + 1;
        if (count < freeAttempts) {
            return new Failures(count, now, Instant.MIN);
        }
        // Capped exponent: the doubling reaches any sane maximum long before 2^30 seconds.
        int doublings = Math.min(count - freeAttempts, 30);
        Duration lockout = FIRST_LOCKOUT.multipliedBy(1L << doublings);
        return new Failures(count, now, now.plus(lockout.compareTo(maxLockout) < 0 ? lockout : maxLockout));
    }

    private static Duration remaining(Failures failures, Instant now) {
        if (failures == null || !failures.lockedUntil().isAfter(now)) {
            return Duration.ZERO;
        }
        return Duration.between(now, failures.lockedUntil());
    }

    private static Map<String, Failures> lru() {
        return new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Failures> eldest) {
                return size() > MAX_ENTRIES;
            }
        };
    }

    private record Failures(int count, Instant last, Instant lockedUntil) {
    }
}

package io.proofline.web.security;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoginThrottleTest {

    /** A clock the test moves by hand. */
    static final class ManualClock extends Clock {
        Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public Instant instant() {
            return now;
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }
    }

    final ManualClock clock = new ManualClock();
    final LoginThrottle throttle = new LoginThrottle(3, Duration.ofMinutes(1), clock);

    @Test
    void theFreeAttemptsPassThenLockoutsDoubleUpToTheMaximum() {
        throttle.failed("admin", "10.0.0.1");
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.lockedFor("admin", "10.0.0.1")).isZero();
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.lockedFor("admin", "10.0.0.1")).isEqualTo(Duration.ofSeconds(1));
        Duration expected = Duration.ofSeconds(1);
        for (int i = 0; i < 10; i++) {
            clock.advance(throttle.lockedFor("admin", "10.0.0.1"));
            assertThat(throttle.lockedFor("admin", "10.0.0.1")).isZero();
            throttle.failed("admin", "10.0.0.1");
            expected = expected.multipliedBy(2).compareTo(Duration.ofMinutes(1)) < 0
                    ? expected.multipliedBy(2) : Duration.ofMinutes(1);
            assertThat(throttle.lockedFor("admin", "10.0.0.1")).isEqualTo(expected);
        }
        assertThat(expected).isEqualTo(Duration.ofMinutes(1));
    }

    @Test
    void aUserIsLockedFromEveryAddressAndAnAddressForEveryUser() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("admin", "10.0.0." + i);
        }
        assertThat(throttle.lockedFor("admin", "10.9.9.9")).isPositive();
        assertThat(throttle.lockedFor("metrics", "10.9.9.9")).isZero();

        for (int i = 0; i < 3; i++) {
            throttle.failed("guess" + i, "10.7.7.7");
        }
        assertThat(throttle.lockedFor("anyone", "10.7.7.7")).isPositive();
        assertThat(throttle.lockedFor("anyone", "10.7.7.8")).isZero();
    }

    @Test
    void aSuccessClearsTheUserButNotTheAddress() {
        throttle.failed("admin", "10.0.0.1");
        throttle.failed("admin", "10.0.0.1");
        throttle.succeeded("admin");
        throttle.failed("admin", "10.0.0.2");
        assertThat(throttle.lockedFor("admin", "10.0.0.2")).isZero();
        throttle.failed("other", "10.0.0.1");
        assertThat(throttle.lockedFor("nobody", "10.0.0.1")).as("three failures from 10.0.0.1").isPositive();
    }

    @Test
    void countsAreForgottenAfterAQuietSpell() {
        throttle.failed("admin", "10.0.0.1");
        throttle.failed("admin", "10.0.0.1");
        clock.advance(Duration.ofMinutes(2).plusSeconds(1));
        throttle.failed("admin", "10.0.0.1");
        assertThat(throttle.lockedFor("admin", "10.0.0.1")).isZero();
    }

    @Test
    void memoryIsBoundedAndTheRecentlySeenAreKept() {
        for (int i = 0; i < 3; i++) {
            throttle.failed("admin", "10.0.0.1");
        }
        for (int i = 0; i < LoginThrottle.MAX_ENTRIES + 5_000; i++) {
            throttle.failed("user" + i, "addr" + i);
            if (i % 1000 == 0) {
                assertThat(throttle.lockedFor("admin", "10.0.0.1")).isPositive();
            }
        }
        assertThat(throttle.lockedFor("admin", "10.0.0.1")).isPositive();
        assertThat(throttle.trackedNames()).isLessThanOrEqualTo(2 * LoginThrottle.MAX_ENTRIES);
    }

    @Test
    void nonsenseSettingsAreRefused() {
        assertThatThrownBy(() -> new LoginThrottle(0, Duration.ofMinutes(1), clock))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new LoginThrottle(3, Duration.ZERO, clock))
                .isInstanceOf(IllegalArgumentException.class);
    }
}

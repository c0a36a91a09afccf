package io.proofline.service;

import io.proofline.service.circuits.CircuitInfo;
import io.proofline.service.circuits.CircuitStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** Who may use a circuit, in the store: the keys that registered it, rows from before tenancy, the console. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CircuitAccessTest {

    final JobsDatabase db = JobsDatabase.h2();
    final CircuitStore store = db.circuits;
    final Tenant alice = Tenant.apiKey("key-alice");
    final Tenant bob = Tenant.apiKey("key-bob");

    @AfterAll
    void close() throws Exception {
        db.close();
    }

    @BeforeEach
    void empty() {
        db.clear();
    }

    static CircuitInfo circuit(char digit) {
        return new CircuitInfo(String.valueOf(digit).repeat(64), "c" + digit, "bn128", 2, 6, 2, 8, 100, false, false,
                Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void aCircuitIsTheRegisteringKeysUntilAnotherRegistersTheSameZkey() {
        CircuitInfo c = circuit('a');
        store.insert(c);
        assertThat(store.grant(c.id(), alice.principal())).isTrue();
        assertThat(store.grant(c.id(), alice.principal())).as("granted once").isFalse();

        assertThat(store.find(c.id(), alice)).contains(c);
        assertThat(store.find(c.id(), bob)).isEmpty();
        assertThat(store.list(bob)).isEmpty();
        assertThat(store.find(c.id(), Tenant.CONSOLE)).contains(c);

        assertThat(store.grant(c.id(), bob.principal())).isTrue();
        assertThat(store.list(bob)).containsExactly(c);
        assertThat(store.holders(c.id())).isEqualTo(2);
        store.revoke(c.id(), alice.principal());
        assertThat(store.find(c.id(), alice)).isEmpty();
        assertThat(store.find(c.id(), bob)).contains(c);
    }

    @Test
    void circuitsFromBeforeTenancyStayVisibleToEveryKeyAndDeleteTakesTheAccessRows() {
        CircuitInfo legacy = circuit('b');
        CircuitInfo mine = circuit('c');
        store.insert(legacy);
        store.insert(mine);
        store.grant(legacy.id(), Tenant.EVERY_KEY);
        store.grant(mine.id(), alice.principal());

        assertThat(store.list(alice)).containsExactly(legacy, mine);
        assertThat(store.list(bob)).containsExactly(legacy);
        assertThat(store.list(Tenant.CONSOLE)).containsExactly(legacy, mine);

        assertThat(store.delete(mine.id())).isTrue();
        assertThat(store.holders(mine.id())).isZero();
        assertThat(db.jdbc.sql("select count(*) from circuit_access").query(Long.class).single()).isEqualTo(1);
    }
}

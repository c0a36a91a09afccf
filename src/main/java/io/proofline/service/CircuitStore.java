package io.proofline.service;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;

/** Registered circuits in the database; their files live under {@link DataDirectory#circuit}. */
@Repository
class CircuitStore {

    private final JdbcClient jdbc;

    CircuitStore(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    void insert(CircuitInfo c) {
        jdbc.sql("""
                insert into circuits (id, name, curve, constraints, variables, public_signals, domain_size, zkey_bytes,
                                      has_wasm, has_r1cs, created_at)
                values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""")
                .params(c.id(), c.name(), c.curve(), c.constraints(), c.variables(), c.publicSignals(), c.domainSize(),
                        c.zkeyBytes(), c.hasWasm(), c.hasR1cs(), JobStore.ts(c.createdAt()))
                .update();
    }

    Optional<CircuitInfo> find(String id) {
        return jdbc.sql("select * from circuits where id = ?").param(id).query(CircuitStore::circuit).optional();
    }

    List<CircuitInfo> list() {
        return jdbc.sql("select * from circuits order by created_at, id").query(CircuitStore::circuit).list();
    }

    boolean delete(String id) {
        return jdbc.sql("delete from circuits where id = ?").param(id).update() == 1;
    }

    private static CircuitInfo circuit(ResultSet rs, int row) throws SQLException {
        return new CircuitInfo(rs.getString("id"), rs.getString("name"), rs.getString("curve"),
                rs.getLong("constraints"), rs.getLong("variables"), rs.getInt("public_signals"),
                rs.getLong("domain_size"), rs.getLong("zkey_bytes"), rs.getBoolean("has_wasm"),
                rs.getBoolean("has_r1cs"), JobStore.instant(rs, "created_at"));
    }
}

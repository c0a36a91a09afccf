package io.proofline.service;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The PostgreSQL of the database integration tests, chosen in this one place: a throw-away Testcontainers PostgreSQL
 * where a Docker engine answers, else the local server ({@code jdbc:postgresql://127.0.0.1:5432/test}, user
 * {@code postgres}, trust auth; {@code PROOFLINE_TEST_PG_URL} and {@code PROOFLINE_TEST_PG_USER} override them).
 * Without either the calling test is skipped with a message saying so. Each caller gets a schema of its own, so
 * concurrent runs against one shared server never see each other's rows.
 */
final class TestPostgres {

    /** The image of the container; the oldest PostgreSQL the chart's documentation names would do as well. */
    private static final String IMAGE = "postgres:17-alpine";

    /** Where the server is and how to log in. */
    record Server(String url, String user, String password, String origin) {
    }

    /** A schema of one test run: its JDBC URL selects it, and closing it drops it with everything in it. */
    record Schema(Server server, String name) implements AutoCloseable {

        /** The JDBC URL whose connections use this schema (also for a child process: the URL is host-reachable). */
        String url() {
            return server.url() + (server.url().contains("?") ? "&" : "?") + "currentSchema=" + name;
        }

        String user() {
            return server.user();
        }

        String password() {
            return server.password();
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection(url(), user(), password());
        }

        @Override
        public void close() throws SQLException {
            execute(server, "drop schema " + name + " cascade");
        }
    }

    private static Server server;

    private TestPostgres() {
    }

    /** A fresh, empty schema on the chosen server; skips the calling test when there is no PostgreSQL. */
    static Schema newSchema() throws SQLException {
        Server s = server();
        String name = "proofline_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        execute(s, "create schema " + name);
        return new Schema(s, name);
    }

    static synchronized Server server() {
        if (server == null) {
            server = DockerClientFactory.instance().isDockerAvailable() ? container() : local();
            System.out.println("PostgreSQL for the tests: " + server.origin() + ", " + server.url());
        }
        return server;
    }

    private static Server container() {
        // Not closed here: Testcontainers' reaper removes it when this JVM exits, so every test class shares one.
        PostgreSQLContainer container = new PostgreSQLContainer(IMAGE);
        container.start();
        return new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                "Testcontainers " + IMAGE);
    }

    private static Server local() {
        String url = System.getenv().getOrDefault("PROOFLINE_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = System.getenv().getOrDefault("PROOFLINE_TEST_PG_USER", "postgres");
        Server local = new Server(url, user, "", "local server (no Docker engine)");
        try {
            execute(local, "select 1");
        } catch (SQLException e) {
            assumeTrue(false, "no Docker engine for Testcontainers and no PostgreSQL at " + url + " (user " + user
                    + ", trust auth): " + e.getMessage());
        }
        return local;
    }

    private static void execute(Server s, String sql) throws SQLException {
        try (Connection c = DriverManager.getConnection(s.url(), s.user(), s.password());
             Statement statement = c.createStatement()) {
            statement.execute(sql);
        }
    }
}

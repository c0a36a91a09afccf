package io.proofline.service;

import org.testcontainers.DockerClientFactory;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The PostgreSQL of the database integration tests, chosen in this one place: a throw-away Testcontainers PostgreSQL
 * where a Docker engine answers (Docker, or podman's Docker-compatible socket named by {@code DOCKER_HOST}; the image
 * is {@code PROOFLINE_PG_IMAGE}, else {@code localhost/proofline-postgres:15} where the engine has it, the image that
 * {@code scripts/container-test.sh} builds from Debian's package with the official image's environment, else
 * {@code postgres:17-alpine} from a registry), else the local server ({@code jdbc:postgresql://127.0.0.1:5432/test}, user
 * {@code postgres}, trust auth; {@code PROOFLINE_TEST_PG_URL} and {@code PROOFLINE_TEST_PG_USER} override them).
 * Without either the calling test is skipped with a message saying so. Each caller gets a schema of its own, so
 * concurrent runs against one shared server never see each other's rows.
 */
final class TestPostgres {

    /** The registry's image, where no image of ours is named or built; the oldest PostgreSQL the chart names would do. */
    private static final String REGISTRY_IMAGE = "postgres:17-alpine";
    /** scripts/container-test.sh's image (Debian's PostgreSQL 15, the official image's environment and command). */
    private static final String LOCAL_IMAGE = "localhost/proofline-postgres:15";

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
        String image = image();
        // Shared by every test class of this JVM: Testcontainers' reaper (Ryuk) removes it when the JVM exits, and
        // where Ryuk is off (podman has no Ryuk image here: TESTCONTAINERS_RYUK_DISABLED) a shutdown hook stops it.
        PostgreSQLContainer container = new PostgreSQLContainer(
                DockerImageName.parse(image).asCompatibleSubstituteFor("postgres"));
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "stop-test-postgres"));
        return new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                "a container (Testcontainers, image " + image + ", engine "
                        + DockerClientFactory.instance().getTransportConfig().getDockerHost() + " version "
                        + DockerClientFactory.instance().getInfo().getServerVersion() + ")");
    }

    private static String image() {
        String named = System.getenv("PROOFLINE_PG_IMAGE");
        if (named != null && !named.isBlank()) {
            return named;
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(LOCAL_IMAGE).exec();
            return LOCAL_IMAGE;
        } catch (RuntimeException notBuiltHere) {
            return REGISTRY_IMAGE;
        }
    }

    private static Server local() {
        String url = System.getenv().getOrDefault("PROOFLINE_TEST_PG_URL", "jdbc:postgresql://127.0.0.1:5432/test");
        String user = System.getenv().getOrDefault("PROOFLINE_TEST_PG_USER", "postgres");
        Server local = new Server(url, user, "", "the local server (fallback: no Docker engine answers)");
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

package io.weir.postgres.testing;

import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerConfig;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real PostgreSQL server per test class, in a temporary directory deleted afterwards:
 *
 * <pre>{@code
 * @RegisterExtension static final PostgresServerExtension postgres = new PostgresServerExtension();
 * ... postgres.jdbcUrl() ...
 * }</pre>
 *
 * The server is its own process on a free loopback port; it is stopped after the class even when
 * tests fail.
 */
public final class PostgresServerExtension implements BeforeAllCallback, AfterAllCallback {
  private Path directory;
  private PostgresServer server;

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    directory = Files.createTempDirectory("weir-postgres-test-");
    // The server may run as an unprivileged user, which must be able to enter the directory.
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    server = PostgresServer.start(PostgresServerConfig.inDirectory(directory).withPort(0));
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (server != null) {
        server.stop();
      }
    } finally {
      if (directory != null) {
        Directories.deleteRecursively(directory);
      }
    }
  }

  public PostgresServer server() {
    return server;
  }

  public String jdbcUrl() {
    return server.jdbcUrl();
  }

  /** A new auto-commit connection; the caller closes it. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl());
  }

  /** Runs one statement in a connection of its own, auto-committed. */
  public void execute(String sql) throws SQLException {
    try (Connection connection = connect();
        Statement statement = connection.createStatement()) {
      statement.execute(sql);
    }
  }

  /** The {@code id} column of {@code table}, in ascending order, as a reader outside the job. */
  public List<Long> ids(String table) throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (Connection connection = connect();
        Statement statement = connection.createStatement();
        ResultSet rows = statement.executeQuery("SELECT id FROM " + table + " ORDER BY id")) {
      while (rows.next()) {
        ids.add(rows.getLong(1));
      }
    }
    return ids;
  }
}

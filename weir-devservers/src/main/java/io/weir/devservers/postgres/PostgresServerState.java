package io.weir.devservers.postgres;

import io.weir.devservers.process.ServerStateFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running server's process id and port, kept in {@code server.properties} of the server
 * directory so that another process ({@code weir postgres stop}, a lab) can find and stop it.
 */
public record PostgresServerState(long pid, int port) {
  private static final Logger LOG = LoggerFactory.getLogger(PostgresServerState.class);

  static final String FILE_NAME = "server.properties";

  /** The JDBC URL of the server's {@code postgres} database as its {@code postgres} user. */
  public String jdbcUrl() {
    return PostgresServer.jdbcUrl(port);
  }

  void write(Path directory) {
    ServerStateFile.write(
        directory.resolve(FILE_NAME),
        "embedded PostgreSQL server",
        Map.of("pid", Long.toString(pid), "port", Integer.toString(port)));
  }

  /**
   * The state in {@code directory}; empty when there is none or it cannot be read, which is logged
   * in one line naming the file: no pid is guessed, so no process is stopped for it.
   */
  static Optional<PostgresServerState> read(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    try {
      return ServerStateFile.read(file)
          .map(
              properties ->
                  new PostgresServerState(
                      Long.parseLong(properties.getProperty("pid")),
                      Integer.parseInt(properties.getProperty("port"))));
    } catch (IOException | RuntimeException e) {
      LOG.warn(
          "ignoring the PostgreSQL server state file {}, which cannot be read: {}",
          file,
          e.toString());
      return Optional.empty();
    }
  }

  static void delete(Path directory) {
    ServerStateFile.delete(directory.resolve(FILE_NAME));
  }
}

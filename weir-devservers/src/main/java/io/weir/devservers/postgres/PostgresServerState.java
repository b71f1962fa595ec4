package io.weir.devservers.postgres;

import io.weir.devservers.process.ServerStateFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The running server's process id and port, kept in {@code server.properties} of the server
 * directory so that another process ({@code weir postgres stop}, a lab) can find and stop it.
 */
public record PostgresServerState(long pid, int port) {
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

  /** The state in {@code directory}; empty when there is none or it cannot be read. */
  static Optional<PostgresServerState> read(Path directory) {
    try {
      return ServerStateFile.read(directory.resolve(FILE_NAME))
          .map(
              properties ->
                  new PostgresServerState(
                      Long.parseLong(properties.getProperty("pid")),
                      Integer.parseInt(properties.getProperty("port"))));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  static void delete(Path directory) {
    ServerStateFile.delete(directory.resolve(FILE_NAME));
  }
}

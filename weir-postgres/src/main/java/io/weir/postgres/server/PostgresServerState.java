package io.weir.postgres.server;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.Properties;

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
    Properties properties = new Properties();
    properties.setProperty("pid", Long.toString(pid));
    properties.setProperty("port", Integer.toString(port));
    Path target = directory.resolve(FILE_NAME);
    Path temporary = directory.resolve(FILE_NAME + ".tmp");
    try (Writer writer = Files.newBufferedWriter(temporary)) {
      properties.store(writer, "embedded PostgreSQL server");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + temporary, e);
    }
    try {
      Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + target, e);
    }
  }

  static Optional<PostgresServerState> read(Path directory) {
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(directory.resolve(FILE_NAME))) {
      properties.load(reader);
      return Optional.of(
          new PostgresServerState(
              Long.parseLong(properties.getProperty("pid")),
              Integer.parseInt(properties.getProperty("port"))));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  static void delete(Path directory) {
    try {
      Files.deleteIfExists(directory.resolve(FILE_NAME));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete the state file in " + directory, e);
    }
  }
}

package io.weir.devservers.postgres;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Where and how the embedded PostgreSQL server runs.
 *
 * @param directory holds the data directory {@code data/}, the log {@code postgres.log} and the
 *     state file; created when missing
 * @param port the port on {@code host}, 0 for any free one (on the loopback address only)
 * @param maxPreparedTransactions the server's {@code max_prepared_transactions}: the exactly-once
 *     sink keeps up to a few prepared transactions per subtask (pending checkpoints)
 * @param startTimeout how long start-up (first start: unpacking and {@code initdb} too) may take
 * @param stopGracePeriod how long a fast shutdown may take before the server is killed
 * @param host the address the server listens on: 127.0.0.1, or the address of a host of its own (a
 *     network namespace), where it trusts every client of the host's own subnet
 * @param launchPrefix the command that runs the server's command lines where it belongs, e.g.
 *     {@code ip netns exec NAME} (empty: run them directly)
 */
public record PostgresServerConfig(
    Path directory,
    int port,
    int maxPreparedTransactions,
    Duration startTimeout,
    Duration stopGracePeriod,
    String host,
    List<String> launchPrefix) {
  public static final int DEFAULT_PORT = 5432;

  public PostgresServerConfig {
    directory = Objects.requireNonNull(directory, "directory").toAbsolutePath().normalize();
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("port must be in 0..65535: " + port);
    }
    if (maxPreparedTransactions < 1) {
      throw new IllegalArgumentException(
          "max_prepared_transactions must be at least 1: " + maxPreparedTransactions);
    }
    Objects.requireNonNull(host, "host");
    launchPrefix = List.copyOf(launchPrefix);
    // The parameter, not onLoopback(): the fields are assigned only after this body.
    if (port == 0 && !PostgresServer.HOST.equals(host)) {
      throw new IllegalArgumentException("a server on " + host + " needs a port, not 0");
    }
  }

  /** Defaults: port 5432, 64 prepared transactions, 60 s to start, 15 s to stop. */
  public static PostgresServerConfig inDirectory(Path directory) {
    return new PostgresServerConfig(
        directory,
        DEFAULT_PORT,
        64,
        Duration.ofSeconds(60),
        Duration.ofSeconds(15),
        PostgresServer.HOST,
        List.of());
  }

  public PostgresServerConfig withPort(int newPort) {
    return new PostgresServerConfig(
        directory,
        newPort,
        maxPreparedTransactions,
        startTimeout,
        stopGracePeriod,
        host,
        launchPrefix);
  }

  public PostgresServerConfig withStartTimeout(Duration newStartTimeout) {
    return new PostgresServerConfig(
        directory,
        port,
        maxPreparedTransactions,
        newStartTimeout,
        stopGracePeriod,
        host,
        launchPrefix);
  }

  /**
   * The server on a host of its own: listening on {@code newHost}, its processes started through
   * {@code newLaunchPrefix}.
   */
  public PostgresServerConfig withPlacement(String newHost, List<String> newLaunchPrefix) {
    return new PostgresServerConfig(
        directory,
        port,
        maxPreparedTransactions,
        startTimeout,
        stopGracePeriod,
        newHost,
        newLaunchPrefix);
  }

  boolean onLoopback() {
    return PostgresServer.HOST.equals(host);
  }

  Path dataDirectory() {
    return directory.resolve("data");
  }

  Path logFile() {
    return directory.resolve("postgres.log");
  }
}

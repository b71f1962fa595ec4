package io.weir.devservers.postgres;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Where and how the embedded PostgreSQL server runs.
 *
 * @param directory holds the data directory {@code data/}, the log {@code postgres.log} and the
 *     state file; created when missing
 * @param port the port on 127.0.0.1, 0 for any free one
 * @param maxPreparedTransactions the server's {@code max_prepared_transactions}: the exactly-once
 *     sink keeps up to a few prepared transactions per subtask (pending checkpoints)
 * @param startTimeout how long start-up (first start: unpacking and {@code initdb} too) may take
 * @param stopGracePeriod how long a fast shutdown may take before the server is killed
 */
public record PostgresServerConfig(
    Path directory,
    int port,
    int maxPreparedTransactions,
    Duration startTimeout,
    Duration stopGracePeriod) {
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
  }

  /** Defaults: port 5432, 64 prepared transactions, 60 s to start, 15 s to stop. */
  public static PostgresServerConfig inDirectory(Path directory) {
    return new PostgresServerConfig(
        directory, DEFAULT_PORT, 64, Duration.ofSeconds(60), Duration.ofSeconds(15));
  }

  public PostgresServerConfig withPort(int newPort) {
    return new PostgresServerConfig(
        directory, newPort, maxPreparedTransactions, startTimeout, stopGracePeriod);
  }

  Path dataDirectory() {
    return directory.resolve("data");
  }

  Path logFile() {
    return directory.resolve("postgres.log");
  }
}

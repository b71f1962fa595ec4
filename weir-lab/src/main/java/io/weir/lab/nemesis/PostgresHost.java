package io.weir.lab.nemesis;

import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerConfig;
import io.weir.devservers.process.ProcessStopper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The PostgreSQL server the job writes to with {@code --sink postgres}, on a host of its own: apart
 * from the job's host so that a partition can cut the job from the database while the lab's checker
 * still reads it through the bridge, and so that a pause or a kill hits the database alone. It
 * listens on its host's address at the usual port and trusts its subnet (nothing outside the lab's
 * bridge reaches it).
 *
 * <p>A pause or a kill takes the server's every process: the main process and the backends serving
 * the job's connections, as on a host that froze or crashed. Called by the nemesis thread and, to
 * close, by the lab's tear-down; thread-safe through the server's own locking.
 */
final class PostgresHost implements AutoCloseable {
  static final String HOST = "postgres";

  private final LabHost host;
  private final PostgresServer server;

  private PostgresHost(LabHost host, PostgresServer server) {
    this.host = host;
    this.server = server;
  }

  /** Starts the server on {@code host}, its data and log in {@code directory}. */
  static PostgresHost start(LabHost host, Path directory, Duration timeout) {
    PostgresServerConfig config =
        PostgresServerConfig.inDirectory(directory)
            .withPlacement(host.address(), host.launchPrefix())
            .withStartTimeout(timeout);
    return new PostgresHost(host, PostgresServer.start(config));
  }

  LabHost host() {
    return host;
  }

  String jdbcUrl() {
    return server.jdbcUrl();
  }

  /** The server's main process; fails while it is down. */
  ProcessHandle handle() {
    return server
        .handle()
        .orElseThrow(() -> new IllegalStateException("PostgreSQL on " + host.name() + " is down"));
  }

  /**
   * SIGKILL to the main process and every backend: a backend left behind would keep the old shared
   * memory attached and stop the restarted server from starting.
   */
  void kill() {
    ProcessHandle main = handle();
    List<ProcessHandle> backends = main.descendants().toList();
    server.kill();
    backends.forEach(ProcessStopper::kill);
  }

  /** Starts the server again on its directory and address; returns once it accepts connections. */
  void restart() {
    server.restart();
  }

  @Override
  public void close() {
    server.close();
  }
}

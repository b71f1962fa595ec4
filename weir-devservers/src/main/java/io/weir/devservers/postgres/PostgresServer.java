package io.weir.devservers.postgres;

import io.weir.devservers.process.FreePorts;
import io.weir.devservers.process.LogTail;
import io.weir.devservers.process.ProcessStopper;
import io.weir.devservers.process.ProcessStopper.StopSignal;
import io.weir.devservers.process.RecordedProcess;
import io.weir.devservers.process.RecordedProcess.UnreadableCommandLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One PostgreSQL server running as its own process on 127.0.0.1 (or on a host of its own, see
 * {@link PostgresServerConfig#withPlacement}), from the binaries the build brings, with {@code
 * max_prepared_transactions} set for the exactly-once sink. The first start in a directory creates
 * the database cluster ({@code initdb}, user {@code postgres}, trust authentication on loopback);
 * later starts reuse it with all its data.
 *
 * <p>Lifecycle: {@link #start} returns a server that accepts connections; {@link #stop} (fast
 * shutdown: SIGINT, then SIGKILL after the grace period) or {@link #kill} (SIGKILL, as in a crash)
 * ends it. The process outlives the JVM that started it, so whoever starts a server stops it
 * (tests: in an after-all callback). Methods are thread-safe; failures throw {@link
 * PostgresServerException} with a one-line message and the log's tail in its detail.
 */
public final class PostgresServer implements AutoCloseable {
  static final String HOST = FreePorts.HOST;

  private final PostgresServerConfig config;
  private final int port;
  private Process process;

  private PostgresServer(PostgresServerConfig config, int port) {
    this.config = config;
    this.port = port;
  }

  /** Starts a server and returns once it accepts connections, within the start timeout. */
  public static PostgresServer start(PostgresServerConfig config) {
    // A host of its own has its ports to itself; only the loopback address is shared.
    int port =
        config.onLoopback() ? FreePorts.resolve(config.port(), "PostgreSQL", "") : config.port();
    PostgresServer server = new PostgresServer(config, port);
    server.launch();
    return server;
  }

  /** The server whose state file is in {@code directory}, if its process is alive. */
  public static Optional<PostgresServerState> running(Path directory) {
    return PostgresServerState.read(directory.toAbsolutePath().normalize())
        .filter(
            state ->
                RecordedProcess.find(state.pid(), "postgres", UnreadableCommandLine.RECORDED)
                    .isPresent());
  }

  /**
   * Stops the server whose state file is in {@code config.directory()} (started by another process)
   * with a fast shutdown.
   *
   * @return the state of the server that was running, or empty when none was
   */
  public static Optional<PostgresServerState> stopRunning(PostgresServerConfig config) {
    Optional<PostgresServerState> state = running(config.directory());
    state
        .flatMap(running -> ProcessHandle.of(running.pid()))
        .ifPresent(
            handle ->
                ProcessStopper.terminate(handle, config.stopGracePeriod(), StopSignal.INTERRUPT));
    PostgresServerState.delete(config.directory());
    return state;
  }

  /** {@code jdbc:postgresql://127.0.0.1:<port>/postgres?user=postgres}. */
  public static String jdbcUrl(int port) {
    return jdbcUrl(HOST, port);
  }

  /** {@code jdbc:postgresql://<host>:<port>/postgres?user=postgres}. */
  public static String jdbcUrl(String host, int port) {
    return "jdbc:postgresql://" + host + ":" + port + "/postgres?user=postgres";
  }

  public String jdbcUrl() {
    return jdbcUrl(config.host(), port);
  }

  /** The server's main process now, for signals; empty while it is stopped. */
  public synchronized Optional<ProcessHandle> handle() {
    return process == null || !process.isAlive()
        ? Optional.empty()
        : Optional.of(process.toHandle());
  }

  public int port() {
    return port;
  }

  public synchronized long pid() {
    return process.pid();
  }

  public Path directory() {
    return config.directory();
  }

  public Path logFile() {
    return config.logFile();
  }

  /** Fast shutdown (open transactions roll back, prepared ones stay). Idempotent. */
  public synchronized void stop() {
    if (process != null) {
      ProcessStopper.terminate(process.toHandle(), config.stopGracePeriod(), StopSignal.INTERRUPT);
      PostgresServerState.delete(config.directory());
    }
  }

  /** SIGKILL, as in a crash; the next start recovers from the write-ahead log. Idempotent. */
  public synchronized void kill() {
    if (process != null) {
      ProcessStopper.kill(process.toHandle());
      PostgresServerState.delete(config.directory());
    }
  }

  /**
   * Starts the server again on the same directory and port after {@link #stop} or {@link #kill}.
   */
  public synchronized void restart() {
    stop();
    launch();
  }

  @Override
  public void close() {
    stop();
  }

  private synchronized void launch() {
    Instant deadline = Instant.now().plus(config.startTimeout());
    Path binaries = PostgresBinaries.installed();
    ServerProcessUser user = ServerProcessUser.forThisProcess();
    try {
      Files.createDirectories(config.directory());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + config.directory(), e);
    }
    if (!Files.exists(config.dataDirectory().resolve("PG_VERSION"))) {
      user.prepareDataDirectory(config.dataDirectory());
      initializeCluster(binaries, user);
      maybeTrustSubnet();
    } else {
      user.prepareDataDirectory(config.dataDirectory());
    }
    process = startProcess(binaries, user);
    new PostgresServerState(process.pid(), port).write(config.directory());
    if (!awaitConnections(deadline)) {
      String why =
          process.isAlive()
              ? "it accepted no connection within " + config.startTimeout().toSeconds() + " s"
              : "it exited with code " + process.exitValue();
      ProcessStopper.kill(process.toHandle());
      PostgresServerState.delete(config.directory());
      throw new PostgresServerException(
          "PostgreSQL server in "
              + config.directory()
              + " on port "
              + port
              + " failed to start: "
              + why,
          logTail(),
          null);
    }
  }

  private void initializeCluster(Path binaries, ServerProcessUser user) {
    List<String> command =
        List.of(
            binaries.resolve("bin").resolve("initdb").toString(),
            "-D",
            config.dataDirectory().toString(),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C");
    try {
      Process initdb =
          new ProcessBuilder(user.command(command))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(config.logFile().toFile()))
              .start();
      if (!initdb.waitFor(config.startTimeout().toMillis(), TimeUnit.MILLISECONDS)) {
        initdb.destroyForcibly();
        throw new PostgresServerException(
            "initdb of " + config.dataDirectory() + " did not finish in time", logTail(), null);
      }
      if (initdb.exitValue() != 0) {
        throw new PostgresServerException(
            "initdb of " + config.dataDirectory() + " failed with code " + initdb.exitValue(),
            logTail(),
            null);
      }
    } catch (IOException e) {
      throw new PostgresServerException("cannot run initdb: " + e.getMessage(), "", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PostgresServerException("interrupted while running initdb");
    }
  }

  /**
   * On a host of its own the server's clients come from other hosts of its subnet, which initdb's
   * loopback-only trust would refuse.
   */
  private void maybeTrustSubnet() {
    if (config.onLoopback()) {
      return;
    }
    Path hba = config.dataDirectory().resolve("pg_hba.conf");
    try {
      Files.writeString(hba, "host all all samenet trust\n", StandardOpenOption.APPEND);
    } catch (IOException e) {
      throw new PostgresServerException("cannot write " + hba + ": " + e.getMessage(), "", e);
    }
  }

  private Process startProcess(Path binaries, ServerProcessUser user) {
    List<String> command = new ArrayList<>();
    command.add(binaries.resolve("bin").resolve("postgres").toString());
    command.addAll(List.of("-D", config.dataDirectory().toString(), "-p", Integer.toString(port)));
    command.addAll(
        List.of("-c", "listen_addresses=" + config.host(), "-c", "unix_socket_directories="));
    command.addAll(List.of("-c", "max_prepared_transactions=" + config.maxPreparedTransactions()));
    command.addAll(List.of("-c", "max_connections=100"));
    try {
      List<String> placed = new ArrayList<>(config.launchPrefix());
      placed.addAll(user.command(command));
      return new ProcessBuilder(placed)
          .redirectErrorStream(true)
          .redirectOutput(ProcessBuilder.Redirect.appendTo(config.logFile().toFile()))
          .start();
    } catch (IOException e) {
      throw new PostgresServerException(
          "cannot start the PostgreSQL server: " + e.getMessage(), "", e);
    }
  }

  private boolean awaitConnections(Instant deadline) {
    while (Instant.now().isBefore(deadline) && process.isAlive()) {
      try (Connection connection = DriverManager.getConnection(jdbcUrl())) {
        return connection.isValid(5);
      } catch (SQLException notYet) {
        try {
          Thread.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return false;
        }
      }
    }
    return false;
  }

  private String logTail() {
    return LogTail.of(config.logFile(), 30);
  }
}

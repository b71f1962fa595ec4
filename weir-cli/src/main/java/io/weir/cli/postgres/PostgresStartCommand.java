package io.weir.cli.postgres;

import io.weir.cli.error.UserError;
import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerConfig;
import io.weir.devservers.process.DevServerException;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code weir postgres start}: a server in the background that outlives this command. */
@Command(
    name = "start",
    description = "Start a PostgreSQL server (max_prepared_transactions set) in the background.")
final class PostgresStartCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin ServerDirectoryOption directory;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "Port on 127.0.0.1 (0 = any free port). Default: 5432")
  int port = PostgresServerConfig.DEFAULT_PORT;

  @Override
  public void run() {
    PostgresServerConfig config = directory.config().withPort(port);
    PostgresServer.running(config.directory())
        .ifPresent(
            running -> {
              throw new UserError(
                  "a PostgreSQL server is already running in "
                      + config.directory()
                      + " (pid "
                      + running.pid()
                      + ", "
                      + running.jdbcUrl()
                      + "); stop it with: weir postgres stop --dir "
                      + directory.directory);
            });
    PostgresServer server;
    try {
      server = PostgresServer.start(config);
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(server.jdbcUrl());
    out.println(
        "PostgreSQL server running (pid "
            + server.pid()
            + ", directory "
            + server.directory()
            + ", log "
            + server.logFile()
            + ")");
    out.flush();
  }
}

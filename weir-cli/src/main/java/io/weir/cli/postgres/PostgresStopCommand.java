package io.weir.cli.postgres;

import io.weir.cli.error.UserError;
import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerState;
import io.weir.devservers.process.DevServerException;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code weir postgres stop}: a fast shutdown of the server that {@code start} left running. */
@Command(name = "stop", description = "Stop the server started by 'weir postgres start'.")
final class PostgresStopCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin ServerDirectoryOption directory;

  @Override
  public void run() {
    Optional<PostgresServerState> stopped;
    try {
      stopped = PostgresServer.stopRunning(directory.config());
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        stopped
            .map(
                state ->
                    "stopped the PostgreSQL server on port "
                        + state.port()
                        + " (pid "
                        + state.pid()
                        + "); prepared transactions stay in its data directory")
            .orElse("no PostgreSQL server is running in " + directory.config().directory()));
    out.flush();
  }
}

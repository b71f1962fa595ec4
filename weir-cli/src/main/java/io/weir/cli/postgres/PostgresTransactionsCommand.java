package io.weir.cli.postgres;

import io.weir.cli.error.UserError;
import io.weir.devservers.postgres.PostgresServer;
import io.weir.devservers.postgres.PostgresServerState;
import io.weir.postgres.sink.PreparedTransaction;
import io.weir.postgres.sink.PreparedTransactions;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weir postgres transactions}: the database's prepared transactions, and committing or
 * rolling back one by hand when the job that prepared it is gone for good.
 */
@Command(
    name = "transactions",
    description =
        "List prepared transactions; finish one with --commit or --rollback when its job is gone.")
final class PostgresTransactionsCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin ServerDirectoryOption directory;

  @Option(
      names = "--jdbc-url",
      paramLabel = "URL",
      description = "The database. Default: the server started by 'weir postgres start' in --dir")
  String jdbcUrl;

  @ArgGroup(exclusive = true)
  Finish finish;

  static final class Finish {
    @Option(names = "--commit", paramLabel = "GID", description = "COMMIT PREPARED this id.")
    String commit;

    @Option(names = "--rollback", paramLabel = "GID", description = "ROLLBACK PREPARED this id.")
    String rollback;
  }

  @Override
  public void run() {
    String url = jdbcUrl != null ? jdbcUrl : runningServerUrl();
    PrintWriter out = spec.commandLine().getOut();
    try (Connection connection = DriverManager.getConnection(url)) {
      PreparedTransactions transactions = new PreparedTransactions(connection);
      if (finish == null) {
        print(out, transactions.list());
      } else if (finish.commit != null) {
        requireFound(transactions.commit(finish.commit), finish.commit);
        out.println("committed prepared transaction " + finish.commit);
      } else {
        requireFound(transactions.rollback(finish.rollback), finish.rollback);
        out.println("rolled back prepared transaction " + finish.rollback);
      }
    } catch (SQLException e) {
      throw new UserError("PostgreSQL at " + url + ": " + e.getMessage(), e);
    }
    out.flush();
  }

  private String runningServerUrl() {
    return PostgresServer.running(directory.directory)
        .map(PostgresServerState::jdbcUrl)
        .orElseThrow(
            () ->
                new UserError(
                    "no PostgreSQL server is running in "
                        + directory.directory
                        + "; start one with 'weir postgres start' or give --jdbc-url"));
  }

  private static void requireFound(boolean found, String globalId) {
    if (!found) {
      throw new UserError(
          "no prepared transaction '"
              + globalId
              + "' (it was committed or rolled back before, or the id is wrong)");
    }
  }

  private static void print(PrintWriter out, List<PreparedTransaction> transactions) {
    if (transactions.isEmpty()) {
      out.println("no prepared transactions");
      return;
    }
    String format = "%-60s %10s  %-12s %s%n";
    out.printf(format, "GLOBAL ID", "AGE", "OWNER", "DATABASE");
    Instant now = Instant.now();
    for (PreparedTransaction transaction : transactions) {
      out.printf(
          format,
          transaction.globalId(),
          Duration.between(transaction.prepared(), now).toSeconds() + " s",
          transaction.owner(),
          transaction.database());
    }
  }
}

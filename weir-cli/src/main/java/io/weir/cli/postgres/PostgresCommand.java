package io.weir.cli.postgres;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code weir postgres}: the embedded PostgreSQL server and its prepared transactions. */
@Command(
    name = "postgres",
    description = "Start, stop and inspect the embedded PostgreSQL server.",
    mixinStandardHelpOptions = true,
    subcommands = {
      PostgresStartCommand.class,
      PostgresStopCommand.class,
      PostgresTransactionsCommand.class
    })
public final class PostgresCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    new CommandLine(spec).usage(spec.commandLine().getOut());
  }
}

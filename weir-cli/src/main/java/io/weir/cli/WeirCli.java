package io.weir.cli;

import io.weir.cli.bench.BenchCommand;
import io.weir.cli.cluster.ClusterCommand;
import io.weir.cli.cluster.JobCommands;
import io.weir.cli.cluster.JobManagerCommand;
import io.weir.cli.cluster.TaskManagerCommand;
import io.weir.cli.cluster.ZooKeeperCommand;
import io.weir.cli.inspect.InspectCommand;
import io.weir.cli.kafka.KafkaCommand;
import io.weir.cli.lab.DemoCommand;
import io.weir.cli.lab.LabCommand;
import io.weir.cli.postgres.PostgresCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code weir} command. */
@Command(
    name = "weir",
    mixinStandardHelpOptions = true,
    scope = CommandLine.ScopeType.INHERIT,
    version = "weir 0.1.0",
    description = "Weir: stream processing with end-to-end exactly-once.",
    subcommands = {
      DemoCommand.class,
      LabCommand.class,
      PlanCommand.class,
      RunCommand.class,
      InspectCommand.class,
      KafkaCommand.class,
      PostgresCommand.class,
      BenchCommand.class,
      JobManagerCommand.class,
      TaskManagerCommand.class,
      ClusterCommand.class,
      ZooKeeperCommand.class,
      JobCommands.ListCommand.class,
      JobCommands.StopCommand.class,
      JobCommands.CancelCommand.class,
      JobCommands.SavepointCommand.class,
      JobCommands.CheckpointsCommand.class
    })
public final class WeirCli implements Runnable {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code; user errors print one line. */
  public static int run(String... args) {
    CommandLine commandLine = new CommandLine(new WeirCli());
    // Everything after the job class belongs to the job, options included.
    for (String jobCommand : new String[] {"run", "plan", "lab"}) {
      commandLine.getSubcommands().get(jobCommand).setStopAtPositional(true);
    }
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(new UserErrorHandler());
    return commandLine.execute(args);
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.out);
  }
}

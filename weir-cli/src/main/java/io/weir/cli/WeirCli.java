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
import io.weir.cli.newproject.NewCommand;
import io.weir.cli.nexmark.NexmarkCommand;
import io.weir.cli.postgres.PostgresCommand;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The {@code weir} command. */
@Command(
    name = "weir",
    mixinStandardHelpOptions = true,
    scope = CommandLine.ScopeType.INHERIT,
    version = "weir 0.1.0",
    description = "Weir: stream processing with end-to-end exactly-once.")
public final class WeirCli implements Runnable {
  // Building picocli's model of a command reads every option of it by reflection, which costs
  // more than the JVM's own start; a call names one command, so only that one is built.
  private static final List<Class<?>> COMMANDS =
      List.of(
          DemoCommand.class,
          NewCommand.class,
          LabCommand.class,
          PlanCommand.class,
          RunCommand.class,
          InspectCommand.class,
          KafkaCommand.class,
          PostgresCommand.class,
          NexmarkCommand.class,
          BenchCommand.class,
          JobManagerCommand.class,
          TaskManagerCommand.class,
          ClusterCommand.class,
          ZooKeeperCommand.class,
          JobCommands.ListCommand.class,
          JobCommands.StopCommand.class,
          JobCommands.CancelCommand.class,
          JobCommands.SavepointCommand.class,
          JobCommands.CheckpointsCommand.class);

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns the exit code; user errors print one line. */
  public static int run(String... args) {
    // Weir's commands hold no Groovy closures: without this, picocli's start looks for Groovy's
    // classes, which opens every jar on the class path (a sixth of a short command's time).
    System.setProperty("picocli.disable.closures", "true");
    LoggingProvider.nameToSlf4j();
    // Netty's buffer allocator declares Flight Recorder events and registers them on its first
    // allocation, which starts the recorder's metadata machinery (about a hundred classes and
    // generated event handlers): 0.15-0.25 s of a cluster client's submission. Weir reads no Netty
    // events; -Dio.netty.jfr.enabled=true brings them back.
    if (System.getProperty("io.netty.jfr.enabled") == null) {
      System.setProperty("io.netty.jfr.enabled", "false");
    }
    CommandLine commandLine = new CommandLine(new WeirCli());
    for (Class<?> command : commandsFor(args)) {
      commandLine.addSubcommand(command);
    }
    // Everything after the job class belongs to the job, options included.
    for (String jobCommand : new String[] {"run", "plan", "lab"}) {
      CommandLine subcommand = commandLine.getSubcommands().get(jobCommand);
      if (subcommand != null) {
        subcommand.setStopAtPositional(true);
      }
    }
    commandLine.setCaseInsensitiveEnumValuesAllowed(true);
    commandLine.setExecutionExceptionHandler(new UserErrorHandler());
    return commandLine.execute(args);
  }

  /**
   * The command the arguments name, none for a version request, or every command (for help and for
   * suggestions).
   */
  private static List<Class<?>> commandsFor(String[] args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      return List.of();
    }
    if (args.length > 0) {
      for (Class<?> command : COMMANDS) {
        if (command.getAnnotation(Command.class).name().equals(args[0])) {
          return List.of(command);
        }
      }
    }
    return COMMANDS;
  }

  @Spec private CommandSpec spec;

  /** Without a command: the usage, with every command. */
  @Override
  public void run() {
    spec.commandLine().usage(System.out);
  }
}

package io.weir.cli.kafka;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code weir kafka}: the embedded broker and its transactions. */
@Command(
    name = "kafka",
    description = "Start, stop and inspect the embedded Kafka broker.",
    mixinStandardHelpOptions = true,
    subcommands = {
      KafkaStartCommand.class,
      KafkaStopCommand.class,
      KafkaTopicsCommand.class,
      KafkaTransactionsCommand.class
    })
public final class KafkaCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    new CommandLine(spec).usage(spec.commandLine().getOut());
  }
}

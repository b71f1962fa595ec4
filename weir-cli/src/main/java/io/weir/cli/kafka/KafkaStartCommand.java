package io.weir.cli.kafka;

import io.weir.cli.error.UserError;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.devservers.process.DevServerException;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code weir kafka start}: a broker in the background that outlives this command. */
@Command(name = "start", description = "Start a single-node Kafka broker in the background.")
final class KafkaStartCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin BrokerDirectoryOption directory;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "Client port on 127.0.0.1 (0 = any free port). Default: 9092")
  int port = KafkaBrokerConfig.DEFAULT_PORT;

  @Override
  public void run() {
    KafkaBrokerConfig config = directory.config().withPort(port);
    KafkaBroker.running(config.directory())
        .ifPresent(
            running -> {
              throw new UserError(
                  "a Kafka broker is already running in "
                      + config.directory()
                      + " (pid "
                      + running.pid()
                      + ", "
                      + running.bootstrapServers()
                      + "); stop it with: weir kafka stop --dir "
                      + directory.directory);
            });
    KafkaBroker broker;
    try {
      broker = KafkaBroker.start(config);
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(broker.bootstrapServers());
    out.println(
        "Kafka broker running (pid "
            + broker.pid()
            + ", directory "
            + broker.directory()
            + ", log "
            + broker.logFile()
            + ")");
    out.flush();
  }
}

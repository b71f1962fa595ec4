package io.weir.cli.kafka;

import io.weir.cli.error.UserError;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerState;
import io.weir.devservers.process.DevServerException;
import java.io.PrintWriter;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code weir kafka stop}: stops the broker that {@code start} left in a directory. */
@Command(name = "stop", description = "Stop the broker started by 'weir kafka start'.")
final class KafkaStopCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin BrokerDirectoryOption directory;

  @Override
  public void run() {
    Optional<KafkaBrokerState> stopped;
    try {
      stopped = KafkaBroker.stopRunning(directory.config());
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(
        stopped
            .map(
                state ->
                    "stopped the Kafka broker at "
                        + state.bootstrapServers()
                        + " (pid "
                        + state.pid()
                        + ")")
            .orElse("no Kafka broker is running in " + directory.config().directory()));
    out.flush();
  }
}

package io.weir.cli.kafka;

import io.weir.cli.error.UserError;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerState;
import io.weir.devservers.kafka.KafkaCluster;
import io.weir.devservers.kafka.KafkaClusterConfig;
import io.weir.devservers.process.DevServerException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code weir kafka stop}: stops the broker, or every broker of the cluster, that {@code start}
 * left in a directory.
 */
@Command(name = "stop", description = "Stop the broker or cluster started by 'weir kafka start'.")
final class KafkaStopCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin BrokerDirectoryOption directory;

  @Override
  public void run() {
    if (KafkaCluster.isClusterDirectory(directory.directory)) {
      stopCluster();
    } else {
      stopBroker();
    }
  }

  private void stopCluster() {
    KafkaClusterConfig config = KafkaClusterConfig.inDirectory(directory.directory);
    List<KafkaBrokerState> stopped;
    try {
      stopped = KafkaCluster.stopRunning(config);
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    if (stopped.isEmpty()) {
      out.println("no Kafka broker is running in " + config.directory());
    }
    for (KafkaBrokerState state : stopped) {
      out.println(
          "stopped the Kafka broker at " + state.bootstrapServers() + " (pid " + state.pid() + ")");
    }
    out.flush();
  }

  private void stopBroker() {
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

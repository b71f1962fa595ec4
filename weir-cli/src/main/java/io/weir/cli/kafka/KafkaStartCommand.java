package io.weir.cli.kafka;

import io.weir.cli.error.UserError;
import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.devservers.kafka.KafkaBrokerState;
import io.weir.devservers.kafka.KafkaCluster;
import io.weir.devservers.kafka.KafkaClusterConfig;
import io.weir.devservers.process.DevServerException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code weir kafka start}: a broker, or with {@code --brokers 3} a replicated cluster, in the
 * background, outliving this command.
 */
@Command(
    name = "start",
    description = "Start a Kafka broker, or a replicated cluster, in the background.")
final class KafkaStartCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin BrokerDirectoryOption directory;

  @Option(
      names = "--port",
      paramLabel = "PORT",
      description = "Client port on 127.0.0.1 (0 = any free port). Default: 9092")
  int port = KafkaBrokerConfig.DEFAULT_PORT;

  @Option(
      names = "--brokers",
      paramLabel = "N",
      description =
          "1 for a single broker; 3 or more for a cluster (replication factor 3,"
              + " min.insync.replicas=2) on ports PORT to PORT+N-1. Default: 1")
  int brokers = 1;

  @Override
  public void run() {
    if (brokers == 1) {
      startBroker();
    } else if (brokers >= 3) {
      startCluster();
    } else {
      throw new UserError(
          "option --brokers takes 1, or 3 or more for a cluster that survives losing a broker,"
              + " got "
              + brokers);
    }
  }

  private void startCluster() {
    KafkaClusterConfig config =
        KafkaClusterConfig.inDirectory(directory.directory)
            .withBrokers(brokers)
            .withFirstPort(port);
    failIfRunning(config.directory());
    KafkaCluster cluster;
    try {
      cluster = KafkaCluster.start(config);
    } catch (DevServerException e) {
      throw new UserError(e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.println(cluster.bootstrapServers());
    for (KafkaBroker broker : cluster.brokers()) {
      out.println(
          "Kafka broker "
              + broker.nodeId()
              + " running (pid "
              + broker.pid()
              + ", "
              + broker.bootstrapServers()
              + ", log "
              + broker.logFile()
              + ")");
    }
    out.flush();
  }

  private void failIfRunning(Path clusterDirectory) {
    List<KafkaBrokerState> running = KafkaCluster.running(clusterDirectory);
    if (!running.isEmpty()) {
      throw new UserError(
          "a Kafka cluster is already running in "
              + clusterDirectory
              + " (pids "
              + running.stream().map(state -> Long.toString(state.pid())).toList()
              + "); stop it with: weir kafka stop --dir "
              + directory.directory);
    }
  }

  private void startBroker() {
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

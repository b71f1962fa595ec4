package io.weir.cli.kafka;

import io.weir.devservers.kafka.KafkaBrokerConfig;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** The {@code --dir} option shared by {@code weir kafka start} and {@code stop}. */
final class BrokerDirectoryOption {
  @Option(
      names = "--dir",
      paramLabel = "DIR",
      description = "Broker directory (configuration, data, log, pid). Default: .weir/kafka")
  Path directory = Path.of(".weir", "kafka");

  KafkaBrokerConfig config() {
    return KafkaBrokerConfig.inDirectory(directory);
  }
}

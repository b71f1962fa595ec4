package io.weir.cli.kafka;

import java.util.HashMap;
import java.util.Map;
import picocli.CommandLine.Option;

/** The {@code --bootstrap} option of the commands that talk to a running broker. */
final class BootstrapOption {
  static final int TIMEOUT_MS = 5_000;

  @Option(
      names = "--bootstrap",
      paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers. Default: 127.0.0.1:9092")
  String bootstrapServers = "127.0.0.1:9092";

  /** Client settings with short timeouts, so an unreachable address fails in seconds. */
  Map<String, Object> clientConfig() {
    Map<String, Object> config = new HashMap<>();
    config.put("bootstrap.servers", bootstrapServers);
    config.put("request.timeout.ms", TIMEOUT_MS);
    config.put("default.api.timeout.ms", TIMEOUT_MS);
    return config;
  }
}

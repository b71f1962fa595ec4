package io.weir.devservers.kafka;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How to run a cluster of embedded brokers. Build it with {@link #inDirectory(Path)} and the {@code
 * with} methods; every value is immutable.
 *
 * @param directory holds one directory per broker, {@code broker-1} to {@code broker-n}, each laid
 *     out as a single broker's; existing, formatted directories are reused with their data
 * @param brokers how many brokers, each also a voter of the controller quorum (at least 3, so the
 *     quorum and the in-sync replicas outlive one broker)
 * @param firstPort the client port of broker 1; broker n listens on {@code firstPort + n - 1}; 0
 *     picks free ports
 * @param brokerConfig the settings every broker shares (timeouts, heap, extra {@code
 *     server.properties} entries); its directory and ports are ignored
 * @param placement where each broker runs: the loopback address, or hosts of their own (where every
 *     broker takes the well-known ports and {@code firstPort} is ignored)
 */
public record KafkaClusterConfig(
    Path directory,
    int brokers,
    int firstPort,
    KafkaBrokerConfig brokerConfig,
    BrokerPlacement placement) {

  /** A broker's heap in a cluster: three brokers share one development machine. */
  public static final int MAX_HEAP_MEGABYTES = 384;

  public KafkaClusterConfig {
    Objects.requireNonNull(directory, "directory");
    Objects.requireNonNull(placement, "placement");
    directory = directory.toAbsolutePath().normalize();
    if (brokers < 3) {
      throw new IllegalArgumentException(
          "a Kafka cluster needs at least 3 brokers to survive losing one, got " + brokers);
    }
    if (firstPort < 0 || firstPort + brokers - 1 > 65535) {
      throw new IllegalArgumentException("port out of range: " + firstPort);
    }
  }

  /** Three brokers in {@code directory} on free ports, replicated three times. */
  public static KafkaClusterConfig inDirectory(Path directory) {
    return new KafkaClusterConfig(
        directory,
        3,
        0,
        KafkaBrokerConfig.inDirectory(directory).withMaxHeapMegabytes(MAX_HEAP_MEGABYTES),
        BrokerPlacement.LOOPBACK);
  }

  public KafkaClusterConfig withBrokers(int count) {
    return new KafkaClusterConfig(directory, count, firstPort, brokerConfig, placement);
  }

  public KafkaClusterConfig withFirstPort(int port) {
    return new KafkaClusterConfig(directory, brokers, port, brokerConfig, placement);
  }

  public KafkaClusterConfig withBrokerConfig(KafkaBrokerConfig config) {
    return new KafkaClusterConfig(directory, brokers, firstPort, config, placement);
  }

  /** The brokers placed by {@code newPlacement}, e.g. each in a network namespace of its own. */
  public KafkaClusterConfig withPlacement(BrokerPlacement newPlacement) {
    return new KafkaClusterConfig(directory, brokers, firstPort, brokerConfig, newPlacement);
  }

  /** The directory of broker {@code nodeId} (1 to {@link #brokers}). */
  public Path brokerDirectory(int nodeId) {
    return directory.resolve("broker-" + nodeId);
  }

  /**
   * The configuration of broker {@code nodeId}: the shared settings, the replication every broker
   * of a production cluster has (each partition on 3 brokers, a write acknowledged by 2, no
   * out-of-sync replica ever elected), then the shared extra properties, which win.
   */
  KafkaBrokerConfig brokerConfig(int nodeId, int port, int controllerPort) {
    int replicas = Math.min(brokers, 3);
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("default.replication.factor", Integer.toString(replicas));
    properties.put("min.insync.replicas", Integer.toString(replicas - 1));
    properties.put("offsets.topic.replication.factor", Integer.toString(replicas));
    properties.put("transaction.state.log.replication.factor", Integer.toString(replicas));
    properties.put("transaction.state.log.min.isr", Integer.toString(replicas - 1));
    properties.put("share.coordinator.state.topic.replication.factor", Integer.toString(replicas));
    properties.put("share.coordinator.state.topic.min.isr", Integer.toString(replicas - 1));
    properties.put("unclean.leader.election.enable", "false");
    properties.putAll(brokerConfig.brokerProperties());
    return new KafkaBrokerConfig(
        brokerDirectory(nodeId),
        port,
        controllerPort,
        brokerConfig.startTimeout(),
        brokerConfig.stopGracePeriod(),
        properties,
        brokerConfig.javaExecutable(),
        brokerConfig.maxHeapMegabytes());
  }
}

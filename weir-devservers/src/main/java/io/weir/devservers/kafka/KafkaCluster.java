package io.weir.devservers.kafka;

import io.weir.devservers.process.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;

/**
 * A replicated Kafka cluster of {@link KafkaClusterConfig#brokers} brokers (KRaft), each its own
 * process with its own directory and ports, each also a voter of the controller quorum, configured
 * like production: every partition on three brokers, a write acknowledged by two, no unclean leader
 * election.
 *
 * <p>Lifecycle: {@link #start} returns once every broker serves; {@link #broker} gives a broker's
 * handle to {@code kill}, {@code stop} and {@code restart} it alone; {@link #stop} ends every
 * broker at once (a broker stopped alone after the others could not leave the quorum politely). As
 * for a single broker, the processes outlive the JVM that started them.
 *
 * <p>Methods are thread-safe. Failures throw {@link KafkaBrokerException}; a start that fails
 * halfway stops every broker it started.
 */
public final class KafkaCluster implements AutoCloseable {
  private final KafkaClusterConfig config;
  private final List<KafkaBroker> brokers;

  private KafkaCluster(KafkaClusterConfig config, List<KafkaBroker> brokers) {
    this.config = config;
    this.brokers = List.copyOf(brokers);
  }

  /**
   * Starts every broker and returns once each serves clients, within the start timeout. When a
   * broker exits because a port chosen for it was taken before it bound it, every broker is stopped
   * and the start tries again on fresh ports, as {@link KafkaBroker#start} does.
   */
  public static KafkaCluster start(KafkaClusterConfig config) {
    return start(config, FreePorts::pick);
  }

  /** As {@link #start(KafkaClusterConfig)}, with {@code freePort} choosing each port left at 0. */
  static KafkaCluster start(KafkaClusterConfig config, IntSupplier freePort) {
    // One id for every try: a broker directory formatted by a failed try is formatted already.
    String clusterId = Uuid.randomUuid().toString();
    return BrokerStart.retryingOnPortConflict(
        config.directory(),
        "Kafka cluster",
        freePort,
        ports -> launch(config, nodes(config, ports), clusterId));
  }

  private static KafkaCluster launch(
      KafkaClusterConfig config, List<BrokerNode> nodes, String clusterId) {
    List<KafkaBroker> brokers = new ArrayList<>();
    for (BrokerNode node : nodes) {
      KafkaBrokerConfig brokerConfig =
          config.brokerConfig(node.nodeId(), node.port(), node.controllerPort());
      brokers.add(
          KafkaBroker.member(
              brokerConfig,
              node,
              nodes,
              clusterId,
              config.placement().launchPrefix().apply(node.nodeId())));
    }
    KafkaCluster cluster = new KafkaCluster(config, brokers);
    Instant deadline = Instant.now().plus(config.brokerConfig().startTimeout());
    try {
      // All spawned before any is awaited: a broker serves only once a quorum majority runs.
      brokers.forEach(KafkaBroker::spawn);
      brokers.forEach(broker -> broker.awaitServing(deadline));
    } catch (RuntimeException e) {
      cluster.stop();
      throw e;
    }
    return cluster;
  }

  /**
   * Stops the brokers whose state files are in {@code config}'s broker directories (started by
   * another process): SIGTERM to all, then SIGKILL to those still running after the grace period.
   *
   * @return the states of the brokers that were running, empty when none was
   */
  public static List<KafkaBrokerState> stopRunning(KafkaClusterConfig config) {
    List<KafkaBrokerConfig> brokerConfigs = new ArrayList<>();
    for (Path directory : brokerDirectories(config.directory())) {
      brokerConfigs.add(config.brokerConfig().withDirectory(directory));
    }
    List<CompletableFuture<Optional<KafkaBrokerState>>> stops =
        brokerConfigs.stream()
            .map(each -> CompletableFuture.supplyAsync(() -> KafkaBroker.stopRunning(each)))
            .toList();
    return stops.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList();
  }

  /** The states of the brokers in {@code directory} whose processes are alive. */
  public static List<KafkaBrokerState> running(Path directory) {
    return brokerDirectories(directory).stream()
        .map(KafkaBroker::running)
        .flatMap(Optional::stream)
        .toList();
  }

  /** Whether {@code directory} holds a cluster's broker directories (not a single broker). */
  public static boolean isClusterDirectory(Path directory) {
    return !brokerDirectories(directory).isEmpty();
  }

  /** Every broker's address, comma-separated, for {@code bootstrap.servers}. */
  public String bootstrapServers() {
    return brokers.stream().map(KafkaBroker::bootstrapServers).collect(Collectors.joining(","));
  }

  /** The brokers, by node id from 1. */
  public List<KafkaBroker> brokers() {
    return brokers;
  }

  /** The broker with {@code node.id} {@code nodeId}. */
  public KafkaBroker broker(int nodeId) {
    return brokers.stream()
        .filter(broker -> broker.nodeId() == nodeId)
        .findFirst()
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "no broker with node id " + nodeId + " in " + config.directory()));
  }

  public Path directory() {
    return config.directory();
  }

  /** Stops every broker at once: SIGTERM, then SIGKILL after the grace period. Idempotent. */
  public void stop() {
    each(KafkaBroker::stop);
  }

  @Override
  public void close() {
    stop();
  }

  private void each(Consumer<KafkaBroker> action) {
    List<CompletableFuture<Void>> actions =
        brokers.stream()
            .map(broker -> CompletableFuture.runAsync(() -> action.accept(broker)))
            .toList();
    CompletableFuture.allOf(actions.toArray(CompletableFuture[]::new)).join();
  }

  /**
   * Every node's address: on the loopback address the client ports asked for (or free ones) and
   * free controller ports; on hosts of their own the well-known ports.
   */
  private static List<BrokerNode> nodes(KafkaClusterConfig config, BrokerPorts ports) {
    BrokerPlacement placement = config.placement();
    if (!placement.onLoopback(1)) {
      List<BrokerNode> nodes = new ArrayList<>();
      for (int nodeId = 1; nodeId <= config.brokers(); nodeId++) {
        nodes.add(
            new BrokerNode(
                nodeId,
                placement.host().apply(nodeId),
                BrokerPlacement.OWN_HOST_CLIENT_PORT,
                BrokerPlacement.OWN_HOST_CONTROLLER_PORT));
      }
      return nodes;
    }
    List<Integer> clientPorts = new ArrayList<>();
    for (int nodeId = 1; nodeId <= config.brokers(); nodeId++) {
      int asked = config.firstPort() == 0 ? 0 : config.firstPort() + nodeId - 1;
      clientPorts.add(ports.assign(asked, "client"));
    }
    List<BrokerNode> nodes = new ArrayList<>();
    for (int nodeId = 1; nodeId <= config.brokers(); nodeId++) {
      int controllerPort = ports.assign(0, "controller");
      nodes.add(
          new BrokerNode(nodeId, FreePorts.HOST, clientPorts.get(nodeId - 1), controllerPort));
    }
    return nodes;
  }

  private static List<Path> brokerDirectories(Path directory) {
    List<Path> directories = new ArrayList<>();
    for (int nodeId = 1; Files.isDirectory(directory.resolve("broker-" + nodeId)); nodeId++) {
      directories.add(directory.resolve("broker-" + nodeId));
    }
    return directories;
  }
}

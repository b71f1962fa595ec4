package io.weir.devservers.kafka;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The layout of a broker directory and the configuration files written into it: {@code
 * server.properties} (a KRaft node, broker and controller in one process, sized for one machine;
 * single-node replication defaults that a cluster overrides), {@code log4j2.properties}, {@code
 * data/}, {@code broker.log} and {@code broker.out}.
 */
final class BrokerFiles {
  private final Path directory;

  BrokerFiles(Path directory) {
    this.directory = directory;
  }

  Path directory() {
    return directory;
  }

  Path serverProperties() {
    return directory.resolve("server.properties");
  }

  Path loggingConfiguration() {
    return directory.resolve("log4j2.properties");
  }

  Path dataDirectory() {
    return directory.resolve("data");
  }

  Path brokerLog() {
    return directory.resolve("broker.log");
  }

  /** Standard output and error of the broker and the storage tool (normally almost empty). */
  Path processOutput() {
    return directory.resolve("broker.out");
  }

  boolean isFormatted() {
    return Files.exists(dataDirectory().resolve("meta.properties"));
  }

  /**
   * Writes the configuration of {@code node}, one of the controller quorum {@code quorumVoters}
   * (see {@link BrokerNode#quorumVoters}); {@code overrides} replace the single-node defaults.
   */
  void write(BrokerNode node, String quorumVoters, Map<String, String> overrides) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put("process.roles", "broker,controller");
    properties.put("node.id", Integer.toString(node.nodeId()));
    properties.put("controller.quorum.voters", quorumVoters);
    properties.put("controller.listener.names", "CONTROLLER");
    properties.put(
        "listeners",
        "PLAINTEXT://"
            + node.clientAddress()
            + ",CONTROLLER://"
            + node.host()
            + ":"
            + node.controllerPort());
    properties.put("advertised.listeners", "PLAINTEXT://" + node.clientAddress());
    properties.put("inter.broker.listener.name", "PLAINTEXT");
    properties.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    properties.put("log.dirs", dataDirectory().toString());
    properties.put("num.partitions", "1");
    properties.put("offsets.topic.replication.factor", "1");
    properties.put("offsets.topic.num.partitions", "5");
    properties.put("transaction.state.log.replication.factor", "1");
    properties.put("transaction.state.log.min.isr", "1");
    properties.put("transaction.state.log.num.partitions", "5");
    properties.put("share.coordinator.state.topic.replication.factor", "1");
    properties.put("share.coordinator.state.topic.min.isr", "1");
    properties.put("min.insync.replicas", "1");
    properties.put("group.initial.rebalance.delay.ms", "0");
    properties.put("auto.create.topics.enable", "true");
    properties.putAll(overrides);
    StringBuilder text = new StringBuilder("# Written by Weir for an embedded broker.\n");
    properties.forEach((key, value) -> text.append(key).append('=').append(value).append('\n'));
    writeFile(serverProperties(), text.toString());
    writeFile(loggingConfiguration(), loggingConfigurationText());
  }

  private String loggingConfigurationText() {
    return String.join(
        "\n",
        "status = warn",
        "appender.file.type = File",
        "appender.file.name = file",
        "appender.file.append = true",
        "appender.file.fileName = " + brokerLog().toString().replace("\\", "/"),
        "appender.file.layout.type = PatternLayout",
        "appender.file.layout.pattern = [%d] %p %m (%c)%n",
        "rootLogger.level = INFO",
        "rootLogger.appenderRef.file.ref = file",
        "logger.clients.name = org.apache.kafka.clients",
        "logger.clients.level = WARN",
        "logger.request.name = kafka.request.logger",
        "logger.request.level = WARN",
        "");
  }

  private static void writeFile(Path file, String text) {
    try {
      Files.createDirectories(file.getParent());
      Files.writeString(file, text, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new KafkaBrokerException("cannot write the broker's file " + file + ": " + e, "", e);
    }
  }
}

package io.weir.devservers.kafka;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * How to run one embedded broker. Build it with {@link #inDirectory(Path)} and the {@code with}
 * methods; every value is immutable.
 *
 * @param directory holds the broker's configuration, data ({@code data/}), log ({@code broker.log})
 *     and state file; an existing, formatted directory is reused with its data
 * @param port the client (PLAINTEXT) port on 127.0.0.1; 0 picks a free one
 * @param controllerPort the KRaft controller port on 127.0.0.1; 0 picks a free one
 * @param startTimeout how long {@link KafkaBroker#start} waits for the broker to serve
 * @param stopGracePeriod how long {@link KafkaBroker#stop} waits after SIGTERM before SIGKILL
 * @param brokerProperties extra {@code server.properties} entries; they override the defaults
 * @param javaExecutable the {@code java} that runs the broker and the storage tool
 * @param maxHeapMegabytes the broker JVM's maximum heap ({@code -Xmx}), in MiB
 */
public record KafkaBrokerConfig(
    Path directory,
    int port,
    int controllerPort,
    Duration startTimeout,
    Duration stopGracePeriod,
    Map<String, String> brokerProperties,
    Path javaExecutable,
    int maxHeapMegabytes) {

  public static final int DEFAULT_PORT = 9092;

  /** Enough for the tests' and the demo's traffic on one broker. */
  public static final int DEFAULT_MAX_HEAP_MEGABYTES = 768;

  public KafkaBrokerConfig {
    Objects.requireNonNull(directory, "directory");
    directory = directory.toAbsolutePath().normalize();
    if (port < 0 || port > 65535 || controllerPort < 0 || controllerPort > 65535) {
      throw new IllegalArgumentException("port out of range: " + port + ", " + controllerPort);
    }
    if (maxHeapMegabytes < 64) {
      throw new IllegalArgumentException("broker heap below 64 MiB: " + maxHeapMegabytes);
    }
    brokerProperties = Map.copyOf(brokerProperties);
  }

  /** A broker in {@code directory} on free ports, started within 60 s, stopped within 10 s. */
  public static KafkaBrokerConfig inDirectory(Path directory) {
    return new KafkaBrokerConfig(
        directory,
        0,
        0,
        Duration.ofSeconds(60),
        Duration.ofSeconds(10),
        Map.of(),
        Path.of(System.getProperty("java.home"), "bin", "java"),
        DEFAULT_MAX_HEAP_MEGABYTES);
  }

  public KafkaBrokerConfig withDirectory(Path newDirectory) {
    return new KafkaBrokerConfig(
        newDirectory,
        port,
        controllerPort,
        startTimeout,
        stopGracePeriod,
        brokerProperties,
        javaExecutable,
        maxHeapMegabytes);
  }

  public KafkaBrokerConfig withPort(int newPort) {
    return new KafkaBrokerConfig(
        directory,
        newPort,
        controllerPort,
        startTimeout,
        stopGracePeriod,
        brokerProperties,
        javaExecutable,
        maxHeapMegabytes);
  }

  public KafkaBrokerConfig withControllerPort(int newControllerPort) {
    return new KafkaBrokerConfig(
        directory,
        port,
        newControllerPort,
        startTimeout,
        stopGracePeriod,
        brokerProperties,
        javaExecutable,
        maxHeapMegabytes);
  }

  public KafkaBrokerConfig withStartTimeout(Duration timeout) {
    return new KafkaBrokerConfig(
        directory,
        port,
        controllerPort,
        timeout,
        stopGracePeriod,
        brokerProperties,
        javaExecutable,
        maxHeapMegabytes);
  }

  public KafkaBrokerConfig withStopGracePeriod(Duration gracePeriod) {
    return new KafkaBrokerConfig(
        directory,
        port,
        controllerPort,
        startTimeout,
        gracePeriod,
        brokerProperties,
        javaExecutable,
        maxHeapMegabytes);
  }

  public KafkaBrokerConfig withJavaExecutable(Path java) {
    return new KafkaBrokerConfig(
        directory,
        port,
        controllerPort,
        startTimeout,
        stopGracePeriod,
        brokerProperties,
        java,
        maxHeapMegabytes);
  }

  public KafkaBrokerConfig withMaxHeapMegabytes(int megabytes) {
    return new KafkaBrokerConfig(
        directory,
        port,
        controllerPort,
        startTimeout,
        stopGracePeriod,
        brokerProperties,
        javaExecutable,
        megabytes);
  }

  /** Adds or replaces one {@code server.properties} entry. */
  public KafkaBrokerConfig withBrokerProperty(String key, String value) {
    Map<String, String> properties = new LinkedHashMap<>(brokerProperties);
    properties.put(key, value);
    return new KafkaBrokerConfig(
        directory,
        port,
        controllerPort,
        startTimeout,
        stopGracePeriod,
        properties,
        javaExecutable,
        maxHeapMegabytes);
  }

  /**
   * How often the broker looks for transactions past their timeout and aborts them (Kafka's default
   * is 10 s); tests of expiry lower it to wait less.
   */
  public KafkaBrokerConfig withTransactionAbortCheckInterval(Duration interval) {
    return withBrokerProperty(
        "transaction.abort.timed.out.transaction.cleanup.interval.ms",
        Long.toString(interval.toMillis()));
  }
}

package io.weir.kafka.testing;

import io.weir.devservers.kafka.KafkaCluster;
import io.weir.devservers.kafka.KafkaClusterConfig;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real three-broker cluster per test class (replication factor 3, {@code
 * min.insync.replicas=2}), in a temporary directory that is deleted afterwards:
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaClusterExtension kafka = new KafkaClusterExtension();
 * ... kafka.bootstrapServers() ... kafka.cluster().broker(2).kill() ...
 * }</pre>
 *
 * Every broker is stopped after the class even when tests fail.
 */
public final class KafkaClusterExtension implements BeforeAllCallback, AfterAllCallback {
  private final UnaryOperator<KafkaClusterConfig> customizer;
  private Path directory;
  private KafkaCluster cluster;

  public KafkaClusterExtension() {
    this(UnaryOperator.identity());
  }

  /** A cluster whose configuration {@code customizer} adjusts (broker properties, timeouts). */
  public KafkaClusterExtension(UnaryOperator<KafkaClusterConfig> customizer) {
    this.customizer = customizer;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    directory = Files.createTempDirectory("weir-kafka-cluster-test-");
    cluster = KafkaCluster.start(customizer.apply(KafkaClusterConfig.inDirectory(directory)));
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (cluster != null) {
        cluster.stop();
      }
    } finally {
      if (directory != null) {
        Directories.deleteRecursively(directory);
      }
    }
  }

  public KafkaCluster cluster() {
    return cluster;
  }

  public String bootstrapServers() {
    return cluster.bootstrapServers();
  }
}

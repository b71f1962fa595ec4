package io.weir.kafka.testing;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.devservers.kafka.KafkaBrokerConfig;
import io.weir.runtime.checkpoint.storage.Directories;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One real broker per test class, in a temporary directory that is deleted afterwards:
 *
 * <pre>{@code
 * @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();
 * ... kafka.bootstrapServers() ...
 * }</pre>
 *
 * The broker is its own process; it is stopped after the class even when tests fail. Tests may
 * {@code kill()} and {@code restart()} it through {@link #broker()}.
 */
public final class KafkaBrokerExtension implements BeforeAllCallback, AfterAllCallback {
  private final UnaryOperator<KafkaBrokerConfig> customizer;
  private Path directory;
  private KafkaBroker broker;

  public KafkaBrokerExtension() {
    this(UnaryOperator.identity());
  }

  /** A broker whose configuration {@code customizer} adjusts (extra properties, timeouts). */
  public KafkaBrokerExtension(UnaryOperator<KafkaBrokerConfig> customizer) {
    this.customizer = customizer;
  }

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    directory = Files.createTempDirectory("weir-kafka-test-");
    broker = KafkaBroker.start(customizer.apply(KafkaBrokerConfig.inDirectory(directory)));
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (broker != null) {
        broker.stop();
      }
    } finally {
      if (directory != null) {
        Directories.deleteRecursively(directory);
      }
    }
  }

  public KafkaBroker broker() {
    return broker;
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }
}

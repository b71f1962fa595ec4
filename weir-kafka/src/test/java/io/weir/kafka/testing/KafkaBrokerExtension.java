package io.weir.kafka.testing;

import io.weir.kafka.broker.KafkaBroker;
import io.weir.kafka.broker.KafkaBrokerConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
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
  public void afterAll(ExtensionContext context) {
    try {
      if (broker != null) {
        broker.stop();
      }
    } finally {
      deleteRecursively(directory);
    }
  }

  public KafkaBroker broker() {
    return broker;
  }

  public String bootstrapServers() {
    return broker.bootstrapServers();
  }

  private static void deleteRecursively(Path root) {
    if (root == null || !Files.exists(root)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(root)) {
      paths.sorted(Comparator.reverseOrder()).forEach(KafkaBrokerExtension::delete);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void delete(Path path) {
    try {
      Files.deleteIfExists(path);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}

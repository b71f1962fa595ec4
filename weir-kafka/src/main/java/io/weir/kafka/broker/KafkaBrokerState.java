package io.weir.kafka.broker;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.Properties;

/**
 * What a started broker leaves in its directory ({@code broker.state}) so another process (the
 * {@code weir kafka stop} command) can find and stop it.
 *
 * @param pid the broker's process id
 * @param port its client port on 127.0.0.1
 * @param controllerPort its KRaft controller port on 127.0.0.1
 */
public record KafkaBrokerState(long pid, int port, int controllerPort) {
  static final String FILE_NAME = "broker.state";

  public String bootstrapServers() {
    return FreePorts.HOST + ":" + port;
  }

  /** The state file of the broker in {@code directory}, if one was written. */
  public static Optional<KafkaBrokerState> read(Path directory) {
    Path file = directory.resolve(FILE_NAME);
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    Properties properties = new Properties();
    try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      properties.load(reader);
      return Optional.of(
          new KafkaBrokerState(
              Long.parseLong(properties.getProperty("pid")),
              Integer.parseInt(properties.getProperty("port")),
              Integer.parseInt(properties.getProperty("controller.port"))));
    } catch (IOException | RuntimeException e) {
      throw new KafkaBrokerException("cannot read the broker state file " + file, "", e);
    }
  }

  void write(Path directory) {
    Properties properties = new Properties();
    properties.setProperty("pid", Long.toString(pid));
    properties.setProperty("port", Integer.toString(port));
    properties.setProperty("controller.port", Integer.toString(controllerPort));
    Path file = directory.resolve(FILE_NAME);
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      properties.store(writer, "Weir embedded Kafka broker");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  static void delete(Path directory) {
    try {
      Files.deleteIfExists(directory.resolve(FILE_NAME));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + directory.resolve(FILE_NAME), e);
    }
  }
}

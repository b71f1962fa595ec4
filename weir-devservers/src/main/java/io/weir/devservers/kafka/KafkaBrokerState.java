package io.weir.devservers.kafka;

import io.weir.devservers.process.FreePorts;
import io.weir.devservers.process.ServerStateFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
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
    try {
      return ServerStateFile.read(file).map(KafkaBrokerState::of);
    } catch (IOException | RuntimeException e) {
      throw new KafkaBrokerException("cannot read the broker state file " + file, "", e);
    }
  }

  private static KafkaBrokerState of(Properties properties) {
    return new KafkaBrokerState(
        Long.parseLong(properties.getProperty("pid")),
        Integer.parseInt(properties.getProperty("port")),
        Integer.parseInt(properties.getProperty("controller.port")));
  }

  void write(Path directory) {
    ServerStateFile.write(
        directory.resolve(FILE_NAME),
        "Weir embedded Kafka broker",
        Map.of(
            "pid", Long.toString(pid),
            "port", Integer.toString(port),
            "controller.port", Integer.toString(controllerPort)));
  }

  static void delete(Path directory) {
    ServerStateFile.delete(directory.resolve(FILE_NAME));
  }
}

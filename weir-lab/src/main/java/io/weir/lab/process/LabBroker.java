package io.weir.lab.process;

import io.weir.devservers.kafka.KafkaBrokerConfig;
import java.nio.file.Path;
import java.time.Duration;

/** The broker the lab starts for its matrices and soaks. */
public final class LabBroker {
  /** A broker on a busy machine (the lab runs many JVMs) can take longer than a minute to serve. */
  private static final Duration START_TIMEOUT = Duration.ofMinutes(3);

  private LabBroker() {}

  /** A broker in {@code directory} on free ports, given up to three minutes to serve. */
  public static KafkaBrokerConfig config(Path directory) {
    return KafkaBrokerConfig.inDirectory(directory).withStartTimeout(START_TIMEOUT);
  }
}

package io.weir.cli.kafka;

import picocli.CommandLine.Command;

/** {@code weir kafka}: the embedded broker and its transactions. */
@Command(name = "kafka", description = "Start, stop and inspect the embedded Kafka broker.")
public final class KafkaCommand implements Runnable {
  @Override
  public void run() {
    throw new UnsupportedOperationException("weir kafka is not built yet");
  }
}

package io.weir.kafka.source;

import java.io.IOException;

/**
 * A record's value that a {@link KafkaRecordDeserializer} cannot read (missing, malformed, or not
 * of the expected type), with a one-line message saying why; the Kafka source names the record's
 * topic, partition and offset around it.
 */
public class UnreadableValueException extends IOException {
  private static final long serialVersionUID = 1L;

  public UnreadableValueException(String reason) {
    super(reason);
  }

  public UnreadableValueException(String reason, Throwable cause) {
    super(reason, cause);
  }
}

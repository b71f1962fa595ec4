package io.weir.devservers.kafka;

import io.weir.devservers.process.DevServerException;

/** The embedded Kafka broker could not be started, reached or stopped. */
public class KafkaBrokerException extends DevServerException {
  public KafkaBrokerException(String message) {
    super(message);
  }

  public KafkaBrokerException(String message, String detail, Throwable cause) {
    super(message, detail, cause);
  }
}

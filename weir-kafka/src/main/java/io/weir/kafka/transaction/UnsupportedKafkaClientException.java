package io.weir.kafka.transaction;

/**
 * The kafka-clients on the classpath is not the version whose internals transaction resume was
 * written for: a field or state it needs is missing. Resuming would risk silent data loss, so it
 * fails instead.
 */
public final class UnsupportedKafkaClientException extends RuntimeException {
  UnsupportedKafkaClientException(String message, Throwable cause) {
    super(message, cause);
  }
}

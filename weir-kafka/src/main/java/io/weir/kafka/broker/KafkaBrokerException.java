package io.weir.kafka.broker;

/**
 * The embedded broker could not be started, reached or stopped. The message is one line naming the
 * cause and the directory, port or address involved; {@link #detail()} holds what helps to dig
 * deeper (usually the tail of the broker's log), kept out of the message so users see one line.
 */
public class KafkaBrokerException extends RuntimeException {
  private final String detail;

  public KafkaBrokerException(String message) {
    this(message, "", null);
  }

  public KafkaBrokerException(String message, String detail, Throwable cause) {
    super(message, cause);
    this.detail = detail == null ? "" : detail;
  }

  /** The tail of the broker's log or output at the time of the failure; empty when none. */
  public String detail() {
    return detail;
  }
}

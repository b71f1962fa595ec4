package io.weir.kafka.transaction;

/** No Kafka broker answered at a bootstrap address within the client's (short) timeout. */
public final class BrokerUnreachableException extends RuntimeException {
  public BrokerUnreachableException(String bootstrapServers, String action, Throwable cause) {
    super(
        "no Kafka broker answered at "
            + bootstrapServers
            + " while "
            + action
            + " (is the broker running? check the bootstrap address)",
        cause);
  }
}

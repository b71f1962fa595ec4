package io.weir.kafka.sink;

/** A pending transaction the broker aborted before it could be committed: data loss. */
public final class TransactionAbortedByBrokerException extends Exception {
  public TransactionAbortedByBrokerException(String message, Throwable cause) {
    super(message, cause);
  }
}

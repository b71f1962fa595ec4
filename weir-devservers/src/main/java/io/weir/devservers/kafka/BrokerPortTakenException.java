package io.weir.devservers.kafka;

/** The broker exited at its start because one of its ports was taken; the start may try again. */
final class BrokerPortTakenException extends KafkaBrokerException {
  private final transient BrokerPortConflict conflict;

  BrokerPortTakenException(String message, String detail, BrokerPortConflict conflict) {
    super(message, detail, null);
    this.conflict = conflict;
  }

  BrokerPortConflict conflict() {
    return conflict;
  }
}

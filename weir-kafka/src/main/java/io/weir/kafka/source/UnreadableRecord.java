package io.weir.kafka.source;

import io.weir.kafka.format.Json;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** The one line a Kafka source reports a record with that its deserializer cannot read. */
final class UnreadableRecord {
  private UnreadableRecord() {}

  /**
   * {@code Cannot deserialize the record at offset 5 of topic 'orders', partition 0: <cause>}:
   * where the record is, so that a user can look at it, and why it cannot be read.
   */
  static String describe(ConsumerRecord<?, ?> record, Throwable failure) {
    return "Cannot deserialize the record at offset "
        + record.offset()
        + " of topic '"
        + record.topic()
        + "', partition "
        + record.partition()
        + ": "
        + cause(failure);
  }

  /**
   * The deserializer's reason in one line: the message of an {@link UnreadableValueException} as it
   * is, of any other failure with its class, since a bare {@code null} or {@code For input string}
   * says little.
   */
  static String cause(Throwable failure) {
    String message = Json.oneLine(failure.getMessage());
    if (failure instanceof UnreadableValueException && !message.isEmpty()) {
      return message;
    }
    String name = failure.getClass().getSimpleName();
    return message.isEmpty() ? name : name + ": " + message;
  }
}

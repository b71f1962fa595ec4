package io.weir.api.eventtime;

import java.io.Serializable;

/** Takes a record's event timestamp from the record. */
@FunctionalInterface
public interface TimestampAssigner<T> extends Serializable {
  /**
   * @param previousTimestamp the timestamp the record came with, or {@link Long#MIN_VALUE}
   */
  long extractTimestamp(T element, long previousTimestamp);
}

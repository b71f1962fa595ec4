package io.weir.api.eventtime;

import io.weir.api.annotation.Public;
import java.io.Serializable;

/** Takes a record's event timestamp from the record. */
@Public
@FunctionalInterface
public interface TimestampAssigner<T> extends Serializable {
  /**
   * @param previousTimestamp the timestamp the record came with, or {@link Long#MIN_VALUE}
   */
  long extractTimestamp(T element, long previousTimestamp);
}

package io.weir.api.windowing;

import io.weir.api.annotation.Public;
import java.io.Serializable;
import java.util.Collection;

/** Puts a record into zero or more time windows. */
@Public
public interface WindowAssigner<T> extends Serializable {
  /**
   * @param timestamp the record's event timestamp for event-time windows, the current processing
   *     time for processing-time windows
   */
  Collection<TimeWindow> assignWindows(T element, long timestamp);

  boolean isEventTime();
}

package io.weir.api.windowing;

import io.weir.api.annotation.Public;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/** Consecutive windows of one size that do not overlap, on event time. */
@Public
public final class TumblingEventTimeWindows<T> implements WindowAssigner<T> {
  private final long size;

  private TumblingEventTimeWindows(long size) {
    if (size <= 0) {
      throw new IllegalArgumentException("A window size must be positive");
    }
    this.size = size;
  }

  public static <T> TumblingEventTimeWindows<T> of(Duration size) {
    return new TumblingEventTimeWindows<>(size.toMillis());
  }

  @Override
  public Collection<TimeWindow> assignWindows(T element, long timestamp) {
    long start = timestamp - Math.floorMod(timestamp, size);
    return List.of(new TimeWindow(start, start + size));
  }

  @Override
  public boolean isEventTime() {
    return true;
  }
}

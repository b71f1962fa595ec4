package io.weir.api.windowing;

import io.weir.api.annotation.Public;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Windows of one size that start every {@code slide}, on event time. */
@Public
public final class SlidingEventTimeWindows<T> implements WindowAssigner<T> {
  private final long size;
  private final long slide;

  private SlidingEventTimeWindows(long size, long slide) {
    if (size <= 0 || slide <= 0) {
      throw new IllegalArgumentException("A window's size and slide must be positive");
    }
    this.size = size;
    this.slide = slide;
  }

  public static <T> SlidingEventTimeWindows<T> of(Duration size, Duration slide) {
    return new SlidingEventTimeWindows<>(size.toMillis(), slide.toMillis());
  }

  @Override
  public Collection<TimeWindow> assignWindows(T element, long timestamp) {
    List<TimeWindow> windows = new ArrayList<>((int) (size / slide) + 1);
    long lastStart = timestamp - Math.floorMod(timestamp, slide);
    for (long start = lastStart; start > timestamp - size; start -= slide) {
      windows.add(new TimeWindow(start, start + size));
    }
    return windows;
  }

  @Override
  public boolean isEventTime() {
    return true;
  }
}

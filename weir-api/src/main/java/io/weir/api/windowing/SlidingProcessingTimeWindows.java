package io.weir.api.windowing;

import io.weir.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.Collection;

/** Windows of one size that start every {@code slide}, on processing time. */
@PublicEvolving
public final class SlidingProcessingTimeWindows<T> implements WindowAssigner<T> {
  private final long size;
  private final long slide;

  private SlidingProcessingTimeWindows(long size, long slide) {
    SlidingWindows.checkSizeAndSlide(size, slide);
    this.size = size;
    this.slide = slide;
  }

  public static <T> SlidingProcessingTimeWindows<T> of(Duration size, Duration slide) {
    return new SlidingProcessingTimeWindows<>(size.toMillis(), slide.toMillis());
  }

  @Override
  public Collection<TimeWindow> assignWindows(T element, long timestamp) {
    return SlidingWindows.holding(timestamp, size, slide);
  }

  @Override
  public boolean isEventTime() {
    return false;
  }
}

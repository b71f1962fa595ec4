package io.weir.api.windowing;

import io.weir.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * Sessions on processing time: a session of a key ends when no record of it arrived for {@code
 * gap}. Each record starts the window {@code [now, now + gap)}, which merges with the key's
 * sessions it touches.
 */
@PublicEvolving
public final class ProcessingTimeSessionWindows<T> implements MergingWindowAssigner<T> {
  private final long gap;

  private ProcessingTimeSessionWindows(long gap) {
    this.gap = SessionGap.checked(gap);
  }

  public static <T> ProcessingTimeSessionWindows<T> withGap(Duration gap) {
    return new ProcessingTimeSessionWindows<>(gap.toMillis());
  }

  @Override
  public Collection<TimeWindow> assignWindows(T element, long timestamp) {
    return List.of(new TimeWindow(timestamp, timestamp + gap));
  }

  @Override
  public boolean isEventTime() {
    return false;
  }
}

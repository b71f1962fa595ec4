package io.weir.api.windowing;

import io.weir.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/**
 * Sessions on event time: a key's records whose timestamps are at most {@code gap} apart belong to
 * one session, which ends {@code gap} after its last record. Each record starts the window {@code
 * [timestamp, timestamp + gap)}, which merges with the key's sessions it touches.
 */
@PublicEvolving
public final class EventTimeSessionWindows<T> implements MergingWindowAssigner<T> {
  private final long gap;

  private EventTimeSessionWindows(long gap) {
    this.gap = SessionGap.checked(gap);
  }

  public static <T> EventTimeSessionWindows<T> withGap(Duration gap) {
    return new EventTimeSessionWindows<>(gap.toMillis());
  }

  @Override
  public Collection<TimeWindow> assignWindows(T element, long timestamp) {
    return List.of(new TimeWindow(timestamp, timestamp + gap));
  }

  @Override
  public boolean isEventTime() {
    return true;
  }
}

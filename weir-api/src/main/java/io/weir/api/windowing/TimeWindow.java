package io.weir.api.windowing;

import io.weir.api.annotation.Public;

/** The time interval {@code [start, end)}. */
@Public
public record TimeWindow(long start, long end) implements Window {
  /** The largest timestamp inside the window; its timer fires when event time reaches it. */
  @Override
  public long maxTimestamp() {
    return end - 1;
  }

  /**
   * Whether the two windows overlap or touch; session windows that do merge into one, as Flink's
   * do: records exactly {@code gap} apart fall into the same session.
   */
  public boolean intersects(TimeWindow other) {
    return start <= other.end && end >= other.start;
  }

  /** The smallest window that holds both. */
  public TimeWindow cover(TimeWindow other) {
    return new TimeWindow(Math.min(start, other.start), Math.max(end, other.end));
  }
}

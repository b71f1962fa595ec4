package io.weir.api.windowing;

import io.weir.api.annotation.Public;
import java.io.Serializable;

/** The time interval {@code [start, end)}. */
@Public
public record TimeWindow(long start, long end) implements Serializable {
  /** The largest timestamp inside the window; its timer fires when event time reaches it. */
  public long maxTimestamp() {
    return end - 1;
  }
}

package io.weir.lab;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Percentiles of measured values by nearest rank, as the lab's reports give them. */
public final class Percentile {
  private Percentile() {}

  /** The {@code percentile} (0 to 100) of {@code values} by nearest rank; 0 for no values. */
  public static long of(List<Long> values, double percentile) {
    if (values.isEmpty()) {
      return 0;
    }
    List<Long> sorted = new ArrayList<>(values);
    Collections.sort(sorted);
    int index = (int) Math.ceil(percentile / 100 * sorted.size()) - 1;
    return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index)));
  }
}

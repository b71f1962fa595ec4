package io.weir.runtime.operators.window;

import io.weir.api.windowing.TimeWindow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One merge of a new window into a key's open windows: the open windows it intersects and the cover
 * of them all. The open windows of a merging assigner never intersect one another (they would have
 * merged), so the windows the new one intersects are all the cover takes in.
 *
 * @param result the window the new one and {@code merged} become
 * @param merged the open windows taken into {@code result}, in order of their start
 */
public record WindowMerge(TimeWindow result, List<TimeWindow> merged) {

  /** The merge of {@code window} into {@code open}; nothing changes until {@link #apply}. */
  public static WindowMerge of(TimeWindow window, Collection<TimeWindow> open) {
    List<TimeWindow> merged = new ArrayList<>();
    TimeWindow result = window;
    for (TimeWindow candidate : open) {
      if (candidate.intersects(window)) {
        merged.add(candidate);
        result = result.cover(candidate);
      }
    }
    merged.sort(Comparator.comparingLong(TimeWindow::start));
    return new WindowMerge(result, merged);
  }

  /**
   * Removes the merged windows from {@code windows} and combines their states, oldest first.
   *
   * @return the combined state, or null when nothing was merged
   */
  public Object apply(Map<TimeWindow, Object> windows, WindowAccumulator accumulator)
      throws Exception {
    Object combined = null;
    for (TimeWindow window : merged) {
      Object state = windows.remove(window);
      combined = combined == null ? state : accumulator.merge(combined, state);
    }
    return combined;
  }
}

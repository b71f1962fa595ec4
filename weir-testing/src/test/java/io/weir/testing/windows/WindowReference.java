package io.weir.testing.windows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** What windows should emit, computed from the input by plain loops, apart from the operator. */
final class WindowReference {
  private WindowReference() {}

  /** Tumbling windows of {@code size}: each click counted in {@code [t - t mod size, +size)}. */
  static List<WindowSummary> tumbling(List<Click> clicks, long size) {
    Map<String, WindowSummary> windows = new TreeMap<>();
    for (Click click : clicks) {
      long start = click.time() - Math.floorMod(click.time(), size);
      windows.merge(
          click.user() + "@" + start,
          new WindowSummary(click.user(), start, start + size, 1, click.value()),
          (a, b) ->
              new WindowSummary(a.user(), a.start(), a.end(), a.count() + 1, a.sum() + b.sum()));
    }
    return new ArrayList<>(windows.values());
  }

  /**
   * Sessions with {@code gap}: each user's clicks sorted by time, split where two neighbours are
   * more than {@code gap} apart; a session spans {@code [first, last + gap)}.
   */
  static List<WindowSummary> sessions(List<Click> clicks, long gap) {
    Map<String, List<Click>> byUser = new HashMap<>();
    for (Click click : clicks) {
      byUser.computeIfAbsent(click.user(), user -> new ArrayList<>()).add(click);
    }
    List<WindowSummary> sessions = new ArrayList<>();
    for (List<Click> ofUser : byUser.values()) {
      ofUser.sort(Comparator.comparingLong(Click::time));
      int first = 0;
      for (int index = 1; index <= ofUser.size(); index++) {
        if (index == ofUser.size()
            || ofUser.get(index).time() - ofUser.get(index - 1).time() > gap) {
          sessions.add(summary(ofUser.subList(first, index), gap));
          first = index;
        }
      }
    }
    return sessions;
  }

  private static WindowSummary summary(List<Click> session, long gap) {
    long sum = 0;
    for (Click click : session) {
      sum += click.value();
    }
    Click first = session.get(0);
    Click last = session.get(session.size() - 1);
    return new WindowSummary(first.user(), first.time(), last.time() + gap, session.size(), sum);
  }

  /** Count windows of {@code size}: each user's clicks in arrival order, in full chunks. */
  static List<WindowSummary> countWindows(List<Click> clicks, long size) {
    Map<String, List<Click>> open = new HashMap<>();
    List<WindowSummary> windows = new ArrayList<>();
    for (Click click : clicks) {
      List<Click> window = open.computeIfAbsent(click.user(), user -> new ArrayList<>());
      window.add(click);
      if (window.size() == size) {
        long sum = window.stream().mapToLong(Click::value).sum();
        windows.add(new WindowSummary(click.user(), 0, 0, size, sum));
        window.clear();
      }
    }
    return windows;
  }
}

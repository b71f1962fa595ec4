package io.weir.api.windowing;

import java.util.ArrayList;
import java.util.List;

/**
 * The windows of one size starting every {@code slide} that hold a time: both sliding assigners.
 */
final class SlidingWindows {
  private SlidingWindows() {}

  static void checkSizeAndSlide(long size, long slide) {
    if (size <= 0 || slide <= 0) {
      throw new IllegalArgumentException("A window's size and slide must be positive");
    }
  }

  static List<TimeWindow> holding(long time, long size, long slide) {
    List<TimeWindow> windows = new ArrayList<>((int) (size / slide) + 1);
    long lastStart = time - Math.floorMod(time, slide);
    for (long start = lastStart; start > time - size; start -= slide) {
      windows.add(new TimeWindow(start, start + size));
    }
    return windows;
  }
}

package io.weir.api.windowing;

/** The check both session assigners make of their gap. */
final class SessionGap {
  private SessionGap() {}

  static long checked(long gap) {
    if (gap <= 0) {
      throw new IllegalArgumentException("A session gap must be positive, got " + gap + " ms");
    }
    return gap;
  }
}

package io.weir.testing;

/**
 * The processing time of one harness: it moves only when the test says so, and never backwards.
 * Shared by every operator instance of the harness, across restores.
 */
final class ManualClock {
  private long now;

  ManualClock(long start) {
    this.now = start;
  }

  long now() {
    return now;
  }

  void moveTo(long time) {
    if (time < now) {
      throw new IllegalArgumentException(
          "processing time cannot go back from " + now + " to " + time);
    }
    now = time;
  }
}

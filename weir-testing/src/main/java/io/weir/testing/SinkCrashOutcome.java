package io.weir.testing;

/**
 * What one cell of a {@link SinkCrashMatrix} committed, counted against its input.
 *
 * @param point where the sink crashed
 * @param round in which round of records (0 = the first checkpoint's)
 * @param records how many records went in
 * @param lost records committed fewer times than they went in
 * @param duplicated records committed more times than they went in (or never sent)
 */
public record SinkCrashOutcome(
    SinkCrashPoint point, int round, int records, long lost, long duplicated) {

  public boolean isExactlyOnce() {
    return lost == 0 && duplicated == 0;
  }

  @Override
  public String toString() {
    return point + " in round " + round + ": lost=" + lost + " duplicated=" + duplicated;
  }
}

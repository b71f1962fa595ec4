package io.weir.lab.bench;

import java.util.List;

/**
 * How a run's rows differ from the expected ones, both sorted (as {@code ResultRows} keeps them):
 * {@code lost} expected rows missing from the run, {@code duplicated} rows the run has more often
 * than expected (or that were not expected at all).
 */
record RowDifference(long lost, long duplicated) {
  static RowDifference of(List<String> expected, List<String> actual) {
    long lost = 0;
    long duplicated = 0;
    int mine = 0;
    int theirs = 0;
    while (mine < expected.size() && theirs < actual.size()) {
      int order = expected.get(mine).compareTo(actual.get(theirs));
      if (order == 0) {
        mine++;
        theirs++;
      } else if (order < 0) {
        lost++;
        mine++;
      } else {
        duplicated++;
        theirs++;
      }
    }
    return new RowDifference(lost + expected.size() - mine, duplicated + actual.size() - theirs);
  }

  boolean none() {
    return lost == 0 && duplicated == 0;
  }
}

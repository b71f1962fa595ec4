package io.weir.testing;

import java.util.List;
import java.util.stream.Collectors;

/** The outcome of every cell of a {@link SinkCrashMatrix}. */
public record SinkCrashReport(List<SinkCrashOutcome> outcomes) {
  public SinkCrashReport {
    outcomes = List.copyOf(outcomes);
  }

  /** The cells that lost or duplicated records. */
  public List<SinkCrashOutcome> failures() {
    return outcomes.stream().filter(outcome -> !outcome.isExactlyOnce()).toList();
  }

  /**
   * Passes when every cell committed every record exactly once.
   *
   * @throws AssertionError naming every cell that lost or duplicated records
   */
  public void assertExactlyOnce() {
    List<SinkCrashOutcome> failures = failures();
    if (!failures.isEmpty()) {
      throw new AssertionError(
          failures.size()
              + " of "
              + outcomes.size()
              + " crash cells were not exactly-once:\n"
              + failures.stream().map(Object::toString).collect(Collectors.joining("\n")));
    }
  }
}

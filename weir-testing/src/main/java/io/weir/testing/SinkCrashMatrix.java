package io.weir.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Drives an exactly-once sink (a {@code TwoPhaseCommitSinkFunction} subclass; another sink that is
 * checkpointed and listens to checkpoints must report its commits to {@code
 * RuntimeContext.commitObserver()}) through a crash at every step of the two-phase-commit protocol
 * — begin, write, pre-commit, commit, between two commits, lost notification, recovery — in every
 * round of records, each cell against a fresh external system, and counts what each cell committed.
 *
 * <pre>{@code
 * SinkCrashMatrix.forSink(() -> new DirectoryFixture(Files.createTempDirectory(root, "cell")))
 *     .records(List.of("a", "b", "c", "d", "e", "f"))
 *     .rounds(3)
 *     .run()
 *     .assertExactlyOnce();
 * }</pre>
 *
 * <p>The sink runs in the runtime's own sink operator with the runtime's operator state; a restore
 * sees only what went through serialization. Every cell runs on the calling thread, one after the
 * other.
 *
 * @param <IN> the records the sink writes
 */
public final class SinkCrashMatrix<IN> {
  private final SinkFixture.Factory<IN> fixtures;
  private List<IN> records = List.of();
  private int rounds = 3;

  private SinkCrashMatrix(SinkFixture.Factory<IN> fixtures) {
    this.fixtures = Objects.requireNonNull(fixtures, "fixtures");
  }

  /** {@code fixtures} makes a fresh external system with its sink for each cell. */
  public static <IN> SinkCrashMatrix<IN> forSink(SinkFixture.Factory<IN> fixtures) {
    return new SinkCrashMatrix<>(fixtures);
  }

  /** The records every cell writes, in order; each must be committed exactly as often as here. */
  public SinkCrashMatrix<IN> records(List<IN> input) {
    this.records = List.copyOf(input);
    return this;
  }

  /** How many checkpoints the records are split into (default 3); at least 2. */
  public SinkCrashMatrix<IN> rounds(int checkpoints) {
    if (checkpoints < 2) {
      throw new IllegalArgumentException("rounds must be at least 2, got " + checkpoints);
    }
    this.rounds = checkpoints;
    return this;
  }

  /** Runs every crash point in every round; throws only when the sink or fixture throws. */
  public SinkCrashReport run() throws Exception {
    if (records.size() < rounds) {
      throw new IllegalStateException(
          "give at least one record per round: "
              + records.size()
              + " records, "
              + rounds
              + " rounds");
    }
    List<SinkCrashOutcome> outcomes = new ArrayList<>();
    for (SinkCrashPoint point : SinkCrashPoint.values()) {
      for (int round = 0; round < rounds; round++) {
        if (point.appliesTo(round, rounds)) {
          outcomes.add(runCell(point, round));
        }
      }
    }
    return new SinkCrashReport(outcomes);
  }

  private SinkCrashOutcome runCell(SinkCrashPoint point, int round) throws Exception {
    try (SinkFixture<IN> fixture = fixtures.create()) {
      new SinkCrashScenario<>(records, rounds, point, round).run(fixture);
      Map<IN, Long> difference = new HashMap<>();
      records.forEach(record -> difference.merge(record, 1L, Long::sum));
      fixture.committed().forEach(record -> difference.merge(record, -1L, Long::sum));
      long lost = difference.values().stream().filter(count -> count > 0).mapToLong(c -> c).sum();
      long duplicated =
          difference.values().stream().filter(count -> count < 0).mapToLong(c -> -c).sum();
      return new SinkCrashOutcome(point, round, records.size(), lost, duplicated);
    }
  }
}

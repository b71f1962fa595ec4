package io.weir.testing;

import java.util.List;

/**
 * One cell of a {@link SinkCrashMatrix}: writes the records in rounds, one checkpoint per round, as
 * a task with a source in front of the sink would, crashes once at the cell's point, restores from
 * the latest completed checkpoint and writes again what came after it, then ends the input with a
 * final checkpoint and closes, as a bounded job ends.
 */
final class SinkCrashScenario<IN> {
  /** The latest completed checkpoint and how many records precede its barrier. */
  private record Completed(OperatorSnapshot snapshot, int position) {}

  private final List<IN> records;
  private final int rounds;
  private final SinkCrashPoint point;
  private final int crashRound;
  private OperatorTestHarness<IN, Void> harness;
  private Completed completed = new Completed(null, 0);
  private boolean crashPending = true;

  SinkCrashScenario(List<IN> records, int rounds, SinkCrashPoint point, int crashRound) {
    this.records = records;
    this.rounds = rounds;
    this.point = point;
    this.crashRound = crashRound;
  }

  /** Runs the cell against {@code fixture}; the committed output is then in the fixture. */
  void run(SinkFixture<IN> fixture) throws Exception {
    harness = OperatorHarnesses.<IN>forSink(fixture::newSink).name("Sink under test").open();
    int position = 0;
    while (position < records.size()) {
      int round = roundOf(position);
      position = runRound(round, position);
    }
    harness.endInput();
    OperatorSnapshot last = harness.snapshot();
    harness.notifyCheckpointComplete(last.checkpointId());
    harness.close();
  }

  /** Runs the round that starts at {@code position}; returns where the input continues. */
  private int runRound(int round, int position) throws Exception {
    int end = endOf(round);
    if (crashesHere(SinkCrashPoint.WHILE_WRITING, round)) {
      write(position, position + (end - position) / 2);
      return crashAndRestore();
    }
    write(position, end);
    OperatorSnapshot snapshot = harness.snapshot();
    if (crashesHere(SinkCrashPoint.AFTER_PRE_COMMIT, round)) {
      return crashAndRestore();
    }
    completed = new Completed(snapshot, end);
    if (crashesHere(SinkCrashPoint.BEFORE_COMMIT, round)) {
      return crashAndRestore();
    }
    if (crashesHere(SinkCrashPoint.DURING_RECOVERY, round)) {
      crashAndRestore();
      return crashAndRestore();
    }
    if (point == SinkCrashPoint.AFTER_LOST_NOTIFICATION && crashPending) {
      if (round == crashRound) {
        return end;
      }
      if (round == crashRound + 1) {
        return crashAndRestore();
      }
    }
    harness.notifyCheckpointComplete(snapshot.checkpointId());
    if (crashesHere(SinkCrashPoint.AFTER_COMMIT, round)) {
      return crashAndRestore();
    }
    return end;
  }

  private boolean crashesHere(SinkCrashPoint here, int round) {
    return crashPending && point == here && round == crashRound;
  }

  private void write(int from, int to) throws Exception {
    for (IN record : records.subList(from, to)) {
      harness.processElement(record);
    }
  }

  /** Crashes, restores from the latest completed checkpoint, returns its position. */
  private int crashAndRestore() throws Exception {
    crashPending = false;
    harness.crash();
    if (completed.snapshot() == null) {
      harness.startWithoutState(1);
    } else {
      harness.restore(completed.snapshot());
    }
    return completed.position();
  }

  private int roundOf(int position) {
    int round = 0;
    while (endOf(round) <= position) {
      round++;
    }
    return round;
  }

  /** The end of round {@code round}: rounds differ in size by at most one record. */
  private int endOf(int round) {
    return (int) ((long) (round + 1) * records.size() / rounds);
  }
}

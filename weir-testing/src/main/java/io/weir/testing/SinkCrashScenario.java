package io.weir.testing;

import io.weir.api.checkpoint.CommitObserver;
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

  /** Thrown inside a commit notification to stop it where a halt would. */
  private static final class SimulatedCrash extends Exception {
    SimulatedCrash() {
      super("simulated crash between two commits", null, false, false);
    }
  }

  /**
   * Once armed, lets one commit happen and then fails every later step of the notification, as a
   * process halted right after that commit would leave it.
   */
  private static final class CrashAfterFirstCommit implements CommitObserver {
    private boolean armed;
    private boolean crashed;

    @Override
    public void beforeCommit(long checkpointId) throws SimulatedCrash {
      if (crashed) {
        throw new SimulatedCrash();
      }
    }

    @Override
    public void afterCommit(long checkpointId) throws SimulatedCrash {
      if (armed) {
        armed = false;
        crashed = true;
        throw new SimulatedCrash();
      }
    }
  }

  private final List<IN> records;
  private final int rounds;
  private final SinkCrashPoint point;
  private final int crashRound;
  private OperatorTestHarness<IN, Void> harness;
  private Completed completed = new Completed(null, 0);
  private boolean crashPending = true;
  private final CrashAfterFirstCommit commitCrash = new CrashAfterFirstCommit();

  SinkCrashScenario(List<IN> records, int rounds, SinkCrashPoint point, int crashRound) {
    this.records = records;
    this.rounds = rounds;
    this.point = point;
    this.crashRound = crashRound;
  }

  /** Runs the cell against {@code fixture}; the committed output is then in the fixture. */
  void run(SinkFixture<IN> fixture) throws Exception {
    harness =
        OperatorHarnesses.<IN>forSink(fixture::newSink)
            .name("Sink under test")
            .commitObserver(commitCrash)
            .open();
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
    if (point == SinkCrashPoint.BETWEEN_COMMITS && crashPending) {
      if (round == crashRound) {
        return end;
      }
      if (round == crashRound + 1) {
        return crashBetweenCommits(snapshot.checkpointId());
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

  /** Notifies with two transactions pending and crashes after the first commit. */
  private int crashBetweenCommits(long checkpointId) throws Exception {
    commitCrash.armed = true;
    try {
      harness.notifyCheckpointComplete(checkpointId);
      throw new IllegalStateException(
          "the sink committed without reporting its commits to RuntimeContext.commitObserver()");
    } catch (SimulatedCrash expected) {
      return crashAndRestore();
    }
  }

  /** Crashes, restores from the latest completed checkpoint, returns its position. */
  private int crashAndRestore() throws Exception {
    crashPending = false;
    commitCrash.crashed = false;
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

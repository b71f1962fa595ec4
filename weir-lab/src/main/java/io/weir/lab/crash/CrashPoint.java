package io.weir.lab.crash;

import io.weir.lab.CommitOrder;
import io.weir.runtime.failpoint.FailpointNames;
import java.util.Arrays;
import java.util.List;

/**
 * Where the job process dies while a completed checkpoint is being committed, with what the seed
 * reported for each recovery. Each crash point belongs to one {@link CommitOrder}.
 */
public enum CrashPoint {
  AFTER_SINK_COMMIT(
      CommitOrder.SINK_FIRST,
      "after sink commit, before source commit",
      "after-sink-commit",
      FailpointNames.SINK_COMMIT_AFTER,
      SeedOutcome.EXACTLY_ONCE,
      SeedOutcome.DUPLICATES),
  BEFORE_SINK_COMMIT(
      CommitOrder.SINK_FIRST,
      "before sink commit",
      "before-sink-commit",
      FailpointNames.SINK_COMMIT_BEFORE,
      SeedOutcome.DATA_LOSS,
      SeedOutcome.EXACTLY_ONCE),
  AFTER_SOURCE_COMMIT(
      CommitOrder.SOURCE_FIRST,
      "after source commit, before sink commit",
      "after-source-commit",
      FailpointNames.SOURCE_OFFSETS_COMMIT_AFTER,
      SeedOutcome.DATA_LOSS,
      SeedOutcome.DATA_LOSS),
  BEFORE_SOURCE_COMMIT(
      CommitOrder.SOURCE_FIRST,
      "before source commit",
      "before-source-commit",
      FailpointNames.SOURCE_OFFSETS_COMMIT_BEFORE,
      SeedOutcome.DATA_LOSS,
      SeedOutcome.EXACTLY_ONCE);

  /** What the seed's author observed in a cell. */
  public enum SeedOutcome {
    EXACTLY_ONCE("exactly-once"),
    DATA_LOSS("data loss"),
    DUPLICATES("duplicates");

    private final String label;

    SeedOutcome(String label) {
      this.label = label;
    }

    public String label() {
      return label;
    }
  }

  private final CommitOrder order;
  private final String label;
  private final String key;
  private final String failpoint;
  private final SeedOutcome seedFromCheckpoint;
  private final SeedOutcome seedFromGroupOffsets;

  CrashPoint(
      CommitOrder order,
      String label,
      String key,
      String failpoint,
      SeedOutcome seedFromCheckpoint,
      SeedOutcome seedFromGroupOffsets) {
    this.order = order;
    this.label = label;
    this.key = key;
    this.failpoint = failpoint;
    this.seedFromCheckpoint = seedFromCheckpoint;
    this.seedFromGroupOffsets = seedFromGroupOffsets;
  }

  public CommitOrder order() {
    return order;
  }

  public String label() {
    return label;
  }

  /** The name in the lab's JSON output. */
  public String key() {
    return key;
  }

  /** The failpoint that halts the job here on its {@code hit}th pass, like {@code kill -9}. */
  public String haltAt(int hit) {
    return failpoint + "=halt@" + hit;
  }

  public SeedOutcome seedOutcome(Recovery recovery) {
    return recovery == Recovery.CHECKPOINT ? seedFromCheckpoint : seedFromGroupOffsets;
  }

  public static List<CrashPoint> of(CommitOrder order) {
    return Arrays.stream(values()).filter(point -> point.order == order).toList();
  }
}

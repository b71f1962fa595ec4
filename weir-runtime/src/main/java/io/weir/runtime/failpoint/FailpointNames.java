package io.weir.runtime.failpoint;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentSkipListSet;

/**
 * The names of the failpoints the engine passes through. They are a stable contract: labs and
 * scripts name them from outside, so a name is never changed, only added.
 *
 * <p>A configuration naming an unknown failpoint is refused, so a typo cannot silently disable a
 * crash a lab depends on. Connectors and tests may {@link #register} more names before configuring.
 */
public final class FailpointNames {
  /** The coordinator is about to inject a checkpoint barrier into the sources. */
  public static final String CHECKPOINT_TRIGGER = "checkpoint.trigger";

  /** A task finished the synchronous part of its snapshot. */
  public static final String TASK_SNAPSHOT_AFTER = "task.snapshot.after";

  /** A task stored its state and is about to acknowledge the checkpoint. */
  public static final String TASK_ACK_BEFORE = "task.ack.before";

  /** Every task acknowledged; the coordinator is about to write {@code _metadata}. */
  public static final String COORDINATOR_METADATA_BEFORE = "coordinator.metadata.before";

  /**
   * The job manager confirmed that it still owns the job's checkpoints (leads) and is about to
   * write {@code _metadata}: where a leader frozen now could still complete a checkpoint after a
   * new leader took over.
   */
  public static final String COORDINATOR_METADATA_CONFIRMED = "coordinator.metadata.confirmed";

  /** {@code _metadata} is durable: the checkpoint is complete, nobody has been notified. */
  public static final String COORDINATOR_METADATA_AFTER = "coordinator.metadata.after";

  /** The coordinator is about to tell the tasks that the checkpoint completed. */
  public static final String COORDINATOR_NOTIFY_BEFORE = "coordinator.notify.before";

  /**
   * The job manager is about to confirm that it still owns the job (leads) and then settle the
   * sinks' transactions before an attempt: where a leader frozen now wakes up deposed.
   */
  public static final String RECOVERY_SINKS_BEFORE = "recovery.sinks.before";

  /** A sink is about to commit the transactions of a completed checkpoint. */
  public static final String SINK_COMMIT_BEFORE = "sink.commit.before";

  /** A sink committed the transactions of a completed checkpoint. */
  public static final String SINK_COMMIT_AFTER = "sink.commit.after";

  /**
   * A Kafka sink subtask, beside its start, is about to ask the broker to fence the transactional
   * ids of its pool that its first transactions do not use: where a fence can be held until after
   * its attempt ended.
   */
  public static final String SINK_FENCE_BEFORE = "sink.fence.before";

  /** A source is about to commit a completed checkpoint's offsets to its consumer group. */
  public static final String SOURCE_OFFSETS_COMMIT_BEFORE = "source.offsets-commit.before";

  /** A source committed a completed checkpoint's offsets to its consumer group. */
  public static final String SOURCE_OFFSETS_COMMIT_AFTER = "source.offsets-commit.after";

  /**
   * A Kafka source wrote a record that failed the job too often into the open transaction of its
   * dead-letter topic; the checkpoint that commits it has not been taken yet.
   */
  public static final String SOURCE_DEAD_LETTER_AFTER = "source.dead-letter.after";

  private static final Set<String> KNOWN =
      new ConcurrentSkipListSet<>(
          List.of(
              CHECKPOINT_TRIGGER,
              TASK_SNAPSHOT_AFTER,
              TASK_ACK_BEFORE,
              COORDINATOR_METADATA_BEFORE,
              COORDINATOR_METADATA_CONFIRMED,
              COORDINATOR_METADATA_AFTER,
              COORDINATOR_NOTIFY_BEFORE,
              RECOVERY_SINKS_BEFORE,
              SINK_COMMIT_BEFORE,
              SINK_COMMIT_AFTER,
              SINK_FENCE_BEFORE,
              SOURCE_OFFSETS_COMMIT_BEFORE,
              SOURCE_OFFSETS_COMMIT_AFTER,
              SOURCE_DEAD_LETTER_AFTER));

  private FailpointNames() {}

  /** Makes {@code name} configurable; registering a known name again does nothing. */
  public static void register(String name) {
    if (name == null || name.isBlank() || !name.equals(name.strip()) || name.contains(",")) {
      throw new IllegalArgumentException("invalid failpoint name '" + name + "'");
    }
    KNOWN.add(name);
  }

  public static boolean isKnown(String name) {
    return KNOWN.contains(name);
  }

  /** Every known name, sorted. */
  public static Set<String> known() {
    return new TreeSet<>(KNOWN);
  }
}

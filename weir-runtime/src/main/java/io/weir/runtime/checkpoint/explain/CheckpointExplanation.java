package io.weir.runtime.checkpoint.explain;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.StateFileListings;
import java.io.IOException;
import java.time.Instant;
import java.util.Map;

/**
 * What a checkpoint holds that decides a recovery, in the words {@code weir inspect} prints and the
 * dashboard's recovery view shows: which checkpoint, where the sources resume, the pending
 * transactions a restore commits, the open ones it aborts and, for file-based state backends, the
 * state files it wrote and shares.
 */
public final class CheckpointExplanation {
  private CheckpointExplanation() {}

  /**
   * One line a fact, each but the first indented; no trailing newline.
   *
   * @throws IOException when the checkpoint's state file listings cannot be read
   */
  public static String of(CompletedCheckpoint checkpoint, CheckpointContents contents)
      throws IOException {
    StringBuilder text =
        new StringBuilder()
            .append(checkpoint.savepoint() ? "savepoint " : "checkpoint ")
            .append(checkpoint.checkpointId())
            .append(" of job '")
            .append(checkpoint.jobName())
            .append("'")
            .append(checkpoint.location() == null ? "" : " at " + checkpoint.location())
            .append(", taken ")
            .append(Instant.ofEpochMilli(checkpoint.timestamp()))
            .append("\n  source offsets: ")
            .append(describe(contents.sourcePositions()))
            .append("\n  pending transactions (a restore commits them): ")
            .append(contents.pendingTransactions())
            .append("\n  open at the barrier (a restore aborts them): ")
            .append(contents.openTransactions());
    maybeDescribeStateFiles(checkpoint, text);
    return text.toString();
  }

  /** Positions by split, with their total; {@code none} when there are none. */
  public static String describe(Map<String, Long> positions) {
    if (positions.isEmpty()) {
      return "none";
    }
    long total = positions.values().stream().mapToLong(Long::longValue).sum();
    return positions + " (total " + total + ")";
  }

  /** The files of file-based state backends (RocksDB): what this checkpoint wrote vs shares. */
  private static void maybeDescribeStateFiles(CompletedCheckpoint checkpoint, StringBuilder text)
      throws IOException {
    if (checkpoint.location() == null) {
      return;
    }
    StateFileListings.Summary files = StateFileListings.summarize(checkpoint.location());
    if (files.files() == 0) {
      return;
    }
    text.append(
        String.format(
            "\n  state files: %d, %,d bytes: %,d new in this checkpoint, %,d shared with earlier"
                + " ones",
            files.files(), files.bytes(), files.newBytes(), files.sharedBytes()));
  }
}

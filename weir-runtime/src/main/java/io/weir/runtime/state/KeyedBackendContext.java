package io.weir.runtime.state;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * What a keyed state backend is made from.
 *
 * @param jobName the job's name
 * @param operatorUid the operator's stable id
 * @param subtaskIndex the subtask's index
 * @param range the key groups of the subtask
 * @param maxParallelism the number of key groups
 * @param restored the subtask's share of the restored state (key groups may come from several old
 *     subtasks), or EMPTY
 * @param snapshotFiles where the files of checkpoint {@code id} go, for backends that write files
 */
public record KeyedBackendContext(
    String jobName,
    String operatorUid,
    int subtaskIndex,
    KeyGroupRange range,
    int maxParallelism,
    OperatorSubtaskState restored,
    LongFunction<Optional<SnapshotFiles>> snapshotFiles) {

  /**
   * Where a checkpoint's state files go.
   *
   * @param directory the directory to write them into
   * @param shared true when files there outlive the checkpoint and later checkpoints may refer to
   *     them (a job's checkpoints); false for a self-contained savepoint
   * @param checkpointDirectory the checkpoint's own directory, where a list of the files it uses is
   *     kept beside its state
   */
  public record SnapshotFiles(Path directory, boolean shared, Path checkpointDirectory) {}
}

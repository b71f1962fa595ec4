package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import java.lang.ref.WeakReference;
import java.nio.file.Path;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

/**
 * The operators' state of a checkpoint or savepoint in a directory, by operator uid, read back from
 * its state files whenever it is asked for and kept only while a caller holds what was read.
 *
 * <p>A completed checkpoint stays referenced for as long as it is the job's newest (to restart
 * from) or the one the job started from: holding its state there would keep a serialized copy of
 * every keyed state in the heap beside the live one. Once written, the files are durable, and each
 * read verifies their length and checksum against the metadata, so reading them again yields what
 * the subtasks stored.
 *
 * <p>Immutable; thread safe. The operator uids come from the metadata and need no reading. A read
 * whose files were deleted or damaged since the checkpoint completed throws {@link
 * IllegalStateException} naming the checkpoint and the problem.
 */
final class StoredOperatorStates extends AbstractMap<String, OperatorState> {
  private final CheckpointMetadata metadata;
  private final Path directory;
  private final Set<String> operatorUids;
  private WeakReference<Map<String, OperatorState>> lastRead = new WeakReference<>(null);

  private StoredOperatorStates(CheckpointMetadata metadata, Path directory) {
    this.metadata = metadata;
    this.directory = directory;
    Set<String> uids = new LinkedHashSet<>();
    for (OperatorInfo operator : metadata.operators()) {
      uids.add(operator.uid());
    }
    this.operatorUids = Collections.unmodifiableSet(uids);
  }

  /**
   * The checkpoint that {@code metadata} describes in {@code directory}, whose state is read from
   * its files when asked for. The caller has verified that they can be assembled.
   */
  static CompletedCheckpoint checkpoint(CheckpointMetadata metadata, Path directory) {
    return new CompletedCheckpoint(
        metadata.checkpointId(),
        metadata.timestamp(),
        metadata.jobName(),
        metadata.savepoint(),
        directory,
        new StoredOperatorStates(metadata, directory),
        metadata.enumeratorStateBytes());
  }

  @Override
  public Set<Entry<String, OperatorState>> entrySet() {
    return read().entrySet();
  }

  @Override
  public OperatorState get(Object operatorUid) {
    return operatorUids.contains(operatorUid) ? read().get(operatorUid) : null;
  }

  @Override
  public boolean containsKey(Object operatorUid) {
    return operatorUids.contains(operatorUid);
  }

  @Override
  public Set<String> keySet() {
    return operatorUids;
  }

  @Override
  public int size() {
    return operatorUids.size();
  }

  /** A restore asks once per subtask and operator: one read serves them while it holds it. */
  private synchronized Map<String, OperatorState> read() {
    Map<String, OperatorState> operators = lastRead.get();
    if (operators != null) {
      return operators;
    }
    try {
      operators =
          CheckpointAssembler.operators(
              metadata,
              directory.toString(),
              handle -> CheckpointReader.readState(directory, handle));
    } catch (InvalidCheckpointException e) {
      throw new IllegalStateException(
          "Cannot read back the state of checkpoint "
              + metadata.checkpointId()
              + ": "
              + e.getMessage(),
          e);
    }
    lastRead = new WeakReference<>(operators);
    return operators;
  }
}

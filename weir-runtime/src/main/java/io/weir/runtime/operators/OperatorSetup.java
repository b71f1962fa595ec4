package io.weir.runtime.operators;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.LeaseEpoch;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedStateBackends;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.OptionalLong;

/**
 * Everything an operator instance needs to know about where it runs, given whole at construction.
 *
 * @param keySelector the key of the operator's input when it follows a keyBy, else null
 * @param restoredState this subtask's share of the restored checkpoint, or EMPTY
 * @param restoredCheckpointId the checkpoint restored from, if any
 * @param commitObserver what watches the commits of a two-phase-commit sink in this subtask
 * @param keyedStateBackends makes the keyed state backend of a keyed operator
 * @param leaseEpoch the lease the run holds on the job's checkpoint directory, its sinks' fencing
 *     token
 */
public record OperatorSetup(
    String uid,
    String name,
    String jobName,
    int subtaskIndex,
    int parallelism,
    int maxParallelism,
    int attempt,
    KeySelector<?, ?> keySelector,
    OperatorSubtaskState restoredState,
    OptionalLong restoredCheckpointId,
    ProcessingTimeService timeService,
    CommitObserver commitObserver,
    KeyedStateBackends keyedStateBackends,
    LeaseEpoch leaseEpoch) {

  /** A setup without a lease. */
  public OperatorSetup(
      String uid,
      String name,
      String jobName,
      int subtaskIndex,
      int parallelism,
      int maxParallelism,
      int attempt,
      KeySelector<?, ?> keySelector,
      OperatorSubtaskState restoredState,
      OptionalLong restoredCheckpointId,
      ProcessingTimeService timeService,
      CommitObserver commitObserver,
      KeyedStateBackends keyedStateBackends) {
    this(
        uid,
        name,
        jobName,
        subtaskIndex,
        parallelism,
        maxParallelism,
        attempt,
        keySelector,
        restoredState,
        restoredCheckpointId,
        timeService,
        commitObserver,
        keyedStateBackends,
        LeaseEpoch.NONE);
  }

  /** A setup without a lease whose keyed state, if any, is on the heap. */
  public OperatorSetup(
      String uid,
      String name,
      String jobName,
      int subtaskIndex,
      int parallelism,
      int maxParallelism,
      int attempt,
      KeySelector<?, ?> keySelector,
      OperatorSubtaskState restoredState,
      OptionalLong restoredCheckpointId,
      ProcessingTimeService timeService,
      CommitObserver commitObserver) {
    this(
        uid,
        name,
        jobName,
        subtaskIndex,
        parallelism,
        maxParallelism,
        attempt,
        keySelector,
        restoredState,
        restoredCheckpointId,
        timeService,
        commitObserver,
        KeyedStateBackends.heap());
  }

  public boolean isKeyed() {
    return keySelector != null;
  }

  public boolean isRestored() {
    return restoredCheckpointId.isPresent();
  }

  public KeyGroupRange keyGroupRange() {
    return KeyGroups.rangeOf(subtaskIndex, maxParallelism, parallelism);
  }

  /** How the operator is named in errors: {@code 'Map' (subtask 2/4)}. */
  public String describe() {
    return "'" + name + "' (subtask " + (subtaskIndex + 1) + "/" + parallelism + ")";
  }
}

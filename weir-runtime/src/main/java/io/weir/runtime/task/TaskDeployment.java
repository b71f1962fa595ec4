package io.weir.runtime.task;

import io.weir.api.datastream.JobConfig;
import io.weir.api.functions.LeaseEpoch;
import io.weir.runtime.checkpoint.CheckpointResponder;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.operators.SplitDiscovery;
import io.weir.runtime.startup.BesideStartWork;
import io.weir.runtime.state.OperatorSubtaskState;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.Executor;

/**
 * Everything one subtask needs to run, given whole.
 *
 * @param restoredStates this subtask's share of the restored checkpoint, by operator uid
 * @param gate the subtask's inbox, or null for a source
 * @param snapshotExecutor runs the asynchronous part of snapshots (writing state, acknowledging)
 * @param failpoints the job's in this process, which the subtask passes
 * @param besideStartWork its attempt's here, which the attempt awaits before it ends
 * @param splitDiscovery who finds the splits of a pulled source at the head of the chain
 * @param leaseEpoch the lease the run holds on the job's checkpoint directory, for its sinks
 */
public record TaskDeployment(
    String jobName,
    JobVertex vertex,
    int subtaskIndex,
    int attempt,
    JobConfig config,
    Map<String, OperatorSubtaskState> restoredStates,
    OptionalLong restoredCheckpointId,
    InputGate gate,
    List<OutputEdge> outputs,
    CheckpointStorage storage,
    CheckpointResponder responder,
    TaskListener listener,
    Executor snapshotExecutor,
    Clock clock,
    Failpoints failpoints,
    BesideStartWork besideStartWork,
    SplitDiscovery splitDiscovery,
    LeaseEpoch leaseEpoch) {

  /** {@code Map -> Sink: Example Sink (2/4)}. */
  public String taskName() {
    return vertex.name() + " (" + (subtaskIndex + 1) + "/" + vertex.parallelism() + ")";
  }
}

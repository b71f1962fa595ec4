package io.weir.runtime.taskexecutor;

import io.weir.api.graph.Transformation;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.assignment.StateAssignment;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Gives each subtask of a task its share of a restored checkpoint, by operator uid. */
public final class StateAssigner {
  private StateAssigner() {}

  public static Map<String, OperatorSubtaskState> statesFor(
      CompletedCheckpoint checkpoint, JobVertex vertex, int subtaskIndex, int maxParallelism) {
    Map<String, OperatorSubtaskState> states = new HashMap<>();
    if (checkpoint == null) {
      return states;
    }
    for (Transformation t : vertex.chain()) {
      OperatorInfo operator =
          new OperatorInfo(t.uid(), t.displayName(), vertex.parallelism(), maxParallelism);
      List<OperatorSubtaskState> assigned = StateAssignment.assign(operator, checkpoint);
      states.put(t.uid(), assigned.get(subtaskIndex).restoredFrom(checkpoint.location()));
    }
    return states;
  }
}

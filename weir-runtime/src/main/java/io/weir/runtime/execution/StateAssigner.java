package io.weir.runtime.execution;

import io.weir.api.graph.Transformation;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.HashMap;
import java.util.Map;

/** Picks each subtask's share of a restored checkpoint. */
final class StateAssigner {
  private StateAssigner() {}

  static Map<String, OperatorSubtaskState> statesFor(
      CompletedCheckpoint checkpoint, JobVertex vertex, int subtaskIndex) {
    Map<String, OperatorSubtaskState> states = new HashMap<>();
    if (checkpoint == null) {
      return states;
    }
    for (Transformation t : vertex.chain()) {
      OperatorState state = checkpoint.operators().get(t.uid());
      if (state == null) {
        continue;
      }
      if (state.operator().parallelism() != vertex.parallelism()) {
        throw new IllegalStateException(
            "Operator " + t.uid() + " changed its parallelism; redistribution comes later");
      }
      states.put(t.uid(), state.subtasks().getOrDefault(subtaskIndex, OperatorSubtaskState.EMPTY));
    }
    return states;
  }
}

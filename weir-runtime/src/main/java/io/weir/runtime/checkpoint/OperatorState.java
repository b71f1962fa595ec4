package io.weir.runtime.checkpoint;

import io.weir.runtime.state.OperatorSubtaskState;
import java.util.Map;

/** The state of one operator in a completed checkpoint: every subtask's share. */
public record OperatorState(OperatorInfo operator, Map<Integer, OperatorSubtaskState> subtasks) {}

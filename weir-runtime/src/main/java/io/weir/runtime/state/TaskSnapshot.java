package io.weir.runtime.state;

import java.util.Map;

/** The state of every operator of one subtask's chain at one checkpoint, by operator uid. */
public record TaskSnapshot(Map<String, OperatorSubtaskState> operators) {}

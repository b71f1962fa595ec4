package io.weir.runtime.state;

import java.util.List;
import java.util.Map;

/**
 * The state of one operator in one subtask at one checkpoint, already serialized.
 *
 * @param listStates operator list states by name, one entry per list element
 * @param unionStates operator union list states by name, one entry per list element
 * @param keyGroups keyed state (all states and timers of the operator) by key group
 */
public record OperatorSubtaskState(
    Map<String, List<byte[]>> listStates,
    Map<String, List<byte[]>> unionStates,
    Map<Integer, byte[]> keyGroups) {

  public static final OperatorSubtaskState EMPTY =
      new OperatorSubtaskState(Map.of(), Map.of(), Map.of());

  public boolean isEmpty() {
    return listStates.isEmpty() && unionStates.isEmpty() && keyGroups.isEmpty();
  }
}

package io.weir.runtime.state;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The state of one operator in one subtask at one checkpoint, already serialized.
 *
 * @param listStates operator list states by name, one entry per list element
 * @param unionStates operator union list states by name, one entry per list element
 * @param keyGroups keyed state (all states and timers of the operator) by key group
 * @param location the directory of the checkpoint or savepoint it is restored from, against which a
 *     state backend resolves the relative paths of its files; null when the state is not read from
 *     a directory (a snapshot being taken, a checkpoint kept in memory)
 */
public record OperatorSubtaskState(
    Map<String, List<byte[]>> listStates,
    Map<String, List<byte[]>> unionStates,
    Map<Integer, byte[]> keyGroups,
    Path location) {

  public OperatorSubtaskState(
      Map<String, List<byte[]>> listStates,
      Map<String, List<byte[]>> unionStates,
      Map<Integer, byte[]> keyGroups) {
    this(listStates, unionStates, keyGroups, null);
  }

  /** The same state, restored from the checkpoint in {@code directory}. */
  public OperatorSubtaskState restoredFrom(Path directory) {
    return isEmpty()
        ? this
        : new OperatorSubtaskState(listStates, unionStates, keyGroups, directory);
  }

  /** The same state with {@code written}, key groups an asynchronous part wrote, added. */
  public OperatorSubtaskState withKeyGroups(Map<Integer, byte[]> written) {
    if (written.isEmpty()) {
      return this;
    }
    Map<Integer, byte[]> all = new HashMap<>(keyGroups);
    all.putAll(written);
    return new OperatorSubtaskState(listStates, unionStates, all, location);
  }

  public static final OperatorSubtaskState EMPTY =
      new OperatorSubtaskState(Map.of(), Map.of(), Map.of());

  public boolean isEmpty() {
    return listStates.isEmpty() && unionStates.isEmpty() && keyGroups.isEmpty();
  }
}

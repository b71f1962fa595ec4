package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointMetadata.SubtaskStateHandle;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builds the snapshots of a small two-task job and renders state comparably (bytes as hex). */
final class Snapshots {
  static final String SOURCE_TASK = "Source: Example Source";
  static final String SINK_TASK = "Map -> Sink: Example Sink";
  static final List<OperatorInfo> OPERATORS =
      List.of(
          new OperatorInfo("source", "Source: Example Source", 2, 128),
          new OperatorInfo("map", "Map", 2, 128),
          new OperatorInfo("sink", "Sink: Example Sink", 2, 128));

  private Snapshots() {}

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static TaskSnapshot sourceSnapshot(long checkpointId, int subtask) {
    return new TaskSnapshot(
        Map.of(
            "source",
            new OperatorSubtaskState(
                Map.of(
                    "offsets",
                    List.of(
                        bytes("foo-" + subtask + "@" + checkpointId),
                        bytes("foo-" + (subtask + 2) + "@" + checkpointId))),
                Map.of(),
                Map.of())));
  }

  static TaskSnapshot sinkSnapshot(long checkpointId, int subtask) {
    return new TaskSnapshot(
        Map.of(
            "map",
            new OperatorSubtaskState(
                Map.of(),
                Map.of(),
                Map.of(subtask * 64, bytes("count=" + checkpointId), subtask * 64 + 1, bytes(""))),
            "sink",
            new OperatorSubtaskState(
                Map.of("pending-transactions", List.of(bytes("txn-" + checkpointId))),
                Map.of("job-context", List.of(bytes("context"))),
                Map.of())));
  }

  /** Stores the state of every subtask of checkpoint {@code checkpointId}; returns its metadata. */
  static CheckpointMetadata storeAll(
      CheckpointStorage storage, long checkpointId, boolean savepoint) throws IOException {
    List<SubtaskStateHandle> handles = new ArrayList<>();
    for (int subtask = 0; subtask < 2; subtask++) {
      handles.add(
          new SubtaskStateHandle(
              SOURCE_TASK,
              subtask,
              storage.storeTaskState(
                  checkpointId, SOURCE_TASK, subtask, sourceSnapshot(checkpointId, subtask))));
      handles.add(
          new SubtaskStateHandle(
              SINK_TASK,
              subtask,
              storage.storeTaskState(
                  checkpointId, SINK_TASK, subtask, sinkSnapshot(checkpointId, subtask))));
    }
    return new CheckpointMetadata(
        checkpointId, 1_000 + checkpointId, "word-count", savepoint, OPERATORS, handles, 0);
  }

  /** Every operator's state of a checkpoint as it was stored, rendered comparably. */
  static Map<String, Map<Integer, Object>> expectedOperators(long checkpointId) {
    Map<String, Map<Integer, Object>> operators = new LinkedHashMap<>();
    for (int subtask = 0; subtask < 2; subtask++) {
      TaskSnapshot source = sourceSnapshot(checkpointId, subtask);
      TaskSnapshot sink = sinkSnapshot(checkpointId, subtask);
      int index = subtask;
      operators
          .computeIfAbsent("source", uid -> new LinkedHashMap<>())
          .put(index, readable(source.operators().get("source")));
      operators
          .computeIfAbsent("map", uid -> new LinkedHashMap<>())
          .put(index, readable(sink.operators().get("map")));
      operators
          .computeIfAbsent("sink", uid -> new LinkedHashMap<>())
          .put(index, readable(sink.operators().get("sink")));
    }
    return operators;
  }

  static Map<String, Map<Integer, Object>> readable(
      Map<String, io.weir.runtime.checkpoint.OperatorState> operators) {
    Map<String, Map<Integer, Object>> rendered = new LinkedHashMap<>();
    operators.forEach(
        (uid, operator) -> {
          Map<Integer, Object> subtasks = new LinkedHashMap<>();
          operator.subtasks().forEach((index, state) -> subtasks.put(index, readable(state)));
          rendered.put(uid, subtasks);
        });
    return rendered;
  }

  static Map<String, Object> readable(TaskSnapshot snapshot) {
    Map<String, Object> rendered = new LinkedHashMap<>();
    snapshot.operators().forEach((uid, state) -> rendered.put(uid, readable(state)));
    return rendered;
  }

  static Map<String, Object> readable(OperatorSubtaskState state) {
    Map<String, Object> keyGroups = new LinkedHashMap<>();
    state.keyGroups().forEach((keyGroup, bytes) -> keyGroups.put("" + keyGroup, hex(bytes)));
    return Map.of(
        "list", readableLists(state.listStates()),
        "union", readableLists(state.unionStates()),
        "keyed", keyGroups);
  }

  private static Map<String, List<String>> readableLists(Map<String, List<byte[]>> lists) {
    Map<String, List<String>> rendered = new LinkedHashMap<>();
    lists.forEach(
        (name, elements) -> rendered.put(name, elements.stream().map(Snapshots::hex).toList()));
    return rendered;
  }

  private static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }
}

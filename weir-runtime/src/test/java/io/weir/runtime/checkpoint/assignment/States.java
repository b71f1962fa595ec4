package io.weir.runtime.checkpoint.assignment;

import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds operator states whose elements name where they came from, and reads them back. */
final class States {
  private States() {}

  static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static String text(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static List<String> texts(List<byte[]> elements) {
    return elements.stream().map(States::text).toList();
  }

  /**
   * An operator checkpointed with {@code parallelism} subtasks: subtask j owns its key groups (each
   * state "kg-N"), list "offsets" with {@code listSizes[j]} elements "s<j>-<n>", and union list
   * "context" with one element "u<j>".
   */
  static OperatorState checkpointed(
      String uid, int parallelism, int maxParallelism, int[] listSizes) {
    Map<Integer, OperatorSubtaskState> subtasks = new TreeMap<>();
    for (int subtask = 0; subtask < parallelism; subtask++) {
      List<byte[]> offsets = new ArrayList<>();
      for (int n = 0; n < listSizes[subtask]; n++) {
        offsets.add(bytes("s" + subtask + "-" + n));
      }
      Map<Integer, byte[]> keyGroups = new LinkedHashMap<>();
      KeyGroupRange range = KeyGroups.rangeOf(subtask, maxParallelism, parallelism);
      for (int group = range.start(); group <= range.end(); group++) {
        keyGroups.put(group, bytes("kg-" + group));
      }
      subtasks.put(
          subtask,
          new OperatorSubtaskState(
              Map.of("offsets", offsets),
              Map.of("context", List.of(bytes("u" + subtask))),
              keyGroups));
    }
    return new OperatorState(new OperatorInfo(uid, uid, parallelism, maxParallelism), subtasks);
  }
}

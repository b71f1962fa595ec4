package io.weir.testing;

import io.weir.api.functions.OutputTag;
import io.weir.runtime.operators.Output;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything the subtasks of an operator emitted, in emission order: records, side-output records
 * by tag, watermarks. Outlives crashes and restores, as an output topic would.
 */
final class EmittedRecords implements Output {
  private final List<Timestamped<Object>> records = new ArrayList<>();
  private final Map<OutputTag<?>, List<Timestamped<Object>>> sideOutputs = new LinkedHashMap<>();
  private final List<Long> watermarks = new ArrayList<>();

  @Override
  public void collect(Object record, long timestamp) {
    records.add(new Timestamped<>(record, timestamp));
  }

  @Override
  public void collectSide(OutputTag<?> tag, Object record, long timestamp) {
    sideOutputs
        .computeIfAbsent(tag, t -> new ArrayList<>())
        .add(new Timestamped<>(record, timestamp));
  }

  @Override
  public void emitWatermark(long watermark) {
    watermarks.add(watermark);
  }

  @Override
  public void emitWatermarkStatus(boolean idle) {}

  List<Timestamped<Object>> records() {
    return List.copyOf(records);
  }

  List<Timestamped<Object>> sideOutput(OutputTag<?> tag) {
    return List.copyOf(sideOutputs.getOrDefault(tag, List.of()));
  }

  List<Long> watermarks() {
    return List.copyOf(watermarks);
  }

  void clear() {
    records.clear();
    sideOutputs.clear();
    watermarks.clear();
  }

  /**
   * Whether both hold the same records and side-output records, each as often, and the same
   * watermarks in the same order. The order of records is not compared: timers of several keys due
   * at the same time fire in an order the runtime does not promise. Compared after every input,
   * this still finds a record that moved from one input to another.
   */
  boolean sameAs(EmittedRecords other) {
    return counted(records).equals(counted(other.records))
        && sideOutputs.keySet().equals(other.sideOutputs.keySet())
        && sideOutputs.entrySet().stream()
            .allMatch(
                side ->
                    counted(side.getValue()).equals(counted(other.sideOutputs.get(side.getKey()))))
        && watermarks.equals(other.watermarks);
  }

  private static Map<Timestamped<Object>, Long> counted(List<Timestamped<Object>> emitted) {
    Map<Timestamped<Object>, Long> counts = new HashMap<>();
    emitted.forEach(record -> counts.merge(record, 1L, Long::sum));
    return counts;
  }

  @Override
  public String toString() {
    return "records="
        + records
        + (sideOutputs.isEmpty() ? "" : " side outputs=" + sideOutputs)
        + " watermarks="
        + watermarks;
  }
}

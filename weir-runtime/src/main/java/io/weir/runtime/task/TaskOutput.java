package io.weir.runtime.task;

import io.weir.api.functions.OutputTag;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.exchange.RecordWriter;
import io.weir.runtime.exchange.StreamEvent;
import io.weir.runtime.monitor.SubtaskMetrics;
import io.weir.runtime.operators.Output;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntPredicate;
import java.util.stream.Collectors;

/** The output of a chain's tail: the record writers of the task's outgoing edges. */
final class TaskOutput implements Output {
  private final RecordWriter[] mainWriters;
  private final List<OutputEdge> edges;
  private final SubtaskMetrics metrics;

  TaskOutput(List<OutputEdge> edges, SubtaskMetrics metrics) {
    this.edges = List.copyOf(edges);
    this.metrics = metrics;
    this.mainWriters =
        edges.stream()
            .filter(e -> e.sideOutput() == null)
            .map(OutputEdge::writer)
            .toArray(RecordWriter[]::new);
  }

  @Override
  public void collect(Object record, long timestamp) throws Exception {
    for (RecordWriter writer : mainWriters) {
      writer.emit(record, timestamp);
    }
  }

  @Override
  public void collectSide(OutputTag<?> tag, Object record, long timestamp) throws Exception {
    for (OutputEdge edge : edges) {
      if (tag.equals(edge.sideOutput())) {
        edge.writer().emit(record, timestamp);
      }
    }
  }

  @Override
  public void emitWatermark(long watermark) throws Exception {
    metrics.watermark(watermark);
    broadcast(new StreamEvent.Watermark(watermark));
  }

  @Override
  public void emitWatermarkStatus(boolean idle) throws Exception {
    broadcast(idle ? StreamEvent.IDLE : StreamEvent.ACTIVE);
  }

  void broadcast(StreamEvent event) throws InterruptedException {
    for (OutputEdge edge : edges) {
      edge.writer().broadcast(event);
    }
  }

  long blockedNanos() {
    long sum = 0;
    for (OutputEdge edge : edges) {
      sum += edge.writer().blockedNanos();
    }
    return sum;
  }

  /**
   * The records the last checkpoint barrier overtook in this output, encoded as list states named
   * by edge and target (empty if none).
   */
  Map<String, List<byte[]>> takeOvertaken() {
    Map<String, List<byte[]>> states = Map.of();
    for (int edge = 0; edge < edges.size(); edge++) {
      OutputEdge output = edges.get(edge);
      for (Map.Entry<Integer, List<Batch>> target : output.writer().takeOvertaken().entrySet()) {
        if (states.isEmpty()) {
          states = new HashMap<>();
        }
        List<byte[]> elements = new ArrayList<>();
        InFlightRecords.encodeOutput(output.serializer(), target.getValue(), elements);
        states.put(InFlightRecords.outputStateName(edge, target.getKey()), elements);
      }
    }
    return states;
  }

  /**
   * Emits again the records that a restored checkpoint stored as overtaken in this output, before
   * any new record: by key (or the edge's partitioning) at the new parallelism, except on a
   * broadcast edge, where they go to the target they had.
   *
   * @param replays which old subtasks' records this subtask emits after a rescale
   */
  void replayOvertaken(Map<String, List<byte[]>> listStates, IntPredicate replays)
      throws Exception {
    List<StateSerializer<?>> serializers =
        edges.stream().map(OutputEdge::serializer).collect(Collectors.toList());
    for (Map.Entry<Integer, List<InFlightRecords.OutputRecords>> edge :
        InFlightRecords.decodeOutput(listStates, serializers, replays).entrySet()) {
      OutputEdge output = edges.get(edge.getKey());
      for (InFlightRecords.OutputRecords records : edge.getValue()) {
        if (output.broadcast()
            && (records.rescaled() || records.target() >= output.writer().targetCount())) {
          throw new IllegalStateException(
              "records overtaken on a broadcast output cannot be restored at another"
                  + " parallelism; restore the unaligned checkpoint with the parallelism it was"
                  + " taken with");
        }
        Batch batch = records.records();
        for (int i = 0; i < batch.size(); i++) {
          Object value = batch.value(i);
          if (value instanceof StreamEvent) {
            // Watermarks and the like are emitted again by the restored task itself.
            continue;
          }
          if (output.broadcast()) {
            output.writer().emitTo(records.target(), value, batch.timestamp(i));
          } else {
            output.writer().emit(value, batch.timestamp(i));
          }
        }
      }
    }
  }

  /** Whether a record writer holds batches its target had no room for when a checkpoint came. */
  boolean isHolding() {
    for (OutputEdge edge : edges) {
      if (edge.writer().isHolding()) {
        return true;
      }
    }
    return false;
  }

  /**
   * Hands held batches over, waiting for room unless a checkpoint comes meanwhile.
   *
   * @return whether nothing is held any more
   */
  boolean maybeHandOverHeld() throws InterruptedException {
    for (OutputEdge edge : edges) {
      if (!edge.writer().maybeHandOverHeld()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Ends the task thread's wait for room where barriers overtake: a checkpoint came. Any thread.
   */
  void wakeBlockedSenders() {
    for (OutputEdge edge : edges) {
      edge.writer().wakeBlockedSenders();
    }
  }

  void flushAll() throws InterruptedException {
    for (OutputEdge edge : edges) {
      edge.writer().flushAll();
    }
  }
}

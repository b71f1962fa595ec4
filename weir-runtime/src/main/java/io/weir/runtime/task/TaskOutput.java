package io.weir.runtime.task;

import io.weir.api.functions.OutputTag;
import io.weir.runtime.exchange.RecordWriter;
import io.weir.runtime.exchange.StreamEvent;
import io.weir.runtime.monitor.SubtaskMetrics;
import io.weir.runtime.operators.Output;
import java.util.List;

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

  void flushAll() throws InterruptedException {
    for (OutputEdge edge : edges) {
      edge.writer().flushAll();
    }
  }
}

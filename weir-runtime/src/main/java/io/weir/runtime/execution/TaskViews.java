package io.weir.runtime.execution;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.graph.JobEdge;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.monitor.InputChannelView;
import io.weir.runtime.monitor.SubtaskCheckpointTrace;
import io.weir.runtime.monitor.SubtaskFigures;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.task.StreamTask;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/**
 * The tasks of a job graph with the figures of the subtasks that run them: read from the tasks in
 * this JVM (a local run, a task manager's heartbeat), or as a task manager's heartbeat carried them
 * to the job manager. One model for both.
 */
public final class TaskViews {
  private TaskViews() {}

  /** The tasks with the figures of the subtasks {@code running} in this JVM. */
  public static List<TaskView> of(JobGraph graph, Collection<StreamTask> running) {
    return ofFigures(graph, figuresOf(running));
  }

  /** Each running subtask's figures, read without stopping it; any thread. */
  public static List<SubtaskFigures> figuresOf(Collection<StreamTask> running) {
    return figuresOf(running, 0);
  }

  /**
   * As {@link #figuresOf(Collection)}, each with the last {@code recentTraces} checkpoint traces of
   * the subtask (what a heartbeat carries to the job manager).
   */
  public static List<SubtaskFigures> figuresOf(Collection<StreamTask> running, int recentTraces) {
    List<SubtaskFigures> figures = new ArrayList<>(running.size());
    for (StreamTask task : running) {
      List<SubtaskCheckpointTrace> traces = List.of();
      if (recentTraces > 0) {
        traces = task.metrics().traces();
        traces = traces.subList(Math.max(0, traces.size() - recentTraces), traces.size());
      }
      figures.add(new SubtaskFigures(task.deployment().vertex().id(), subtaskOf(task), traces));
    }
    return figures;
  }

  /** The tasks with the subtask figures known (any subtask left out shows as not running). */
  public static List<TaskView> ofFigures(JobGraph graph, Collection<SubtaskFigures> figures) {
    List<TaskView> views = new ArrayList<>();
    for (JobVertex vertex : graph.vertices()) {
      List<SubtaskView> subtasks = new ArrayList<>();
      for (SubtaskFigures subtask : figures) {
        if (subtask.taskId().equals(vertex.id())) {
          subtasks.add(subtask.subtask());
        }
      }
      subtasks.sort(Comparator.comparingInt(SubtaskView::index));
      views.add(
          new TaskView(
              vertex.id(),
              vertex.name(),
              vertex.parallelism(),
              operatorsOf(vertex),
              subtasks,
              inputsOf(graph, vertex)));
    }
    return views;
  }

  /** The edges that feed {@code vertex}, each with the input it feeds (1, or 2). */
  public static List<TaskView.InputView> inputsOf(JobGraph graph, JobVertex vertex) {
    List<TaskView.InputView> inputs = new ArrayList<>();
    for (JobEdge edge : graph.inputsOf(vertex)) {
      inputs.add(
          new TaskView.InputView(
              graph.inputNumberOf(edge),
              edge.source().id(),
              edge.source().name(),
              JobGraph.partitioningName(edge)));
    }
    return inputs;
  }

  public static List<TaskView.OperatorView> operatorsOf(JobVertex vertex) {
    List<TaskView.OperatorView> operators = new ArrayList<>();
    for (Transformation t : vertex.chain()) {
      operators.add(new TaskView.OperatorView(t.uid(), t.displayName(), roleOf(t)));
    }
    return operators;
  }

  private static String roleOf(Transformation t) {
    if (t.spec() instanceof OperatorSpec.Source) {
      return "source";
    }
    return t.spec() instanceof OperatorSpec.Sink ? "sink" : "operator";
  }

  private static SubtaskView subtaskOf(StreamTask task) {
    List<StreamOperator> operators = task.operators();
    List<SubtaskView.OperatorCounts> counts = new ArrayList<>(operators.size());
    for (StreamOperator operator : operators) {
      counts.add(
          new SubtaskView.OperatorCounts(
              operator.setup().uid(),
              operator.recordsIn(),
              operator.recordsOut(),
              operator.transactions(),
              operator.gauges()));
    }
    StreamOperator head = operators.get(0);
    StreamOperator tail = operators.get(operators.size() - 1);
    long watermark = task.metrics().watermark();
    JobVertex vertex = task.deployment().vertex();
    boolean sinkAtTail = vertex.tail().spec() instanceof OperatorSpec.Sink;
    return new SubtaskView(
        task.deployment().subtaskIndex(),
        task.state().name(),
        vertex.isSource() ? head.recordsOut() : head.recordsIn(),
        sinkAtTail ? tail.recordsIn() : tail.recordsOut(),
        task.blockedOnOutputNanos() / 1_000_000,
        task.metrics().maxInFlightBytes(),
        inputChannelsOf(task.deployment().gate()),
        watermark == Long.MIN_VALUE ? null : watermark,
        counts);
  }

  private static List<InputChannelView> inputChannelsOf(InputGate gate) {
    if (gate == null) {
      return List.of();
    }
    long[] records = gate.queuedRecordsByChannel();
    int credit = gate.recordsPerBatch();
    List<InputChannelView> channels = new ArrayList<>(records.length);
    for (int channel = 0; channel < records.length; channel++) {
      channels.add(
          new InputChannelView(
              channel, records[channel], gate.estimatedBytes(channel, records[channel]), credit));
    }
    return channels;
  }
}

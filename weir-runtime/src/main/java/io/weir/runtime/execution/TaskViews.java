package io.weir.runtime.execution;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.task.StreamTask;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** The tasks of a job graph with the counters of the subtasks that run them in this JVM. */
public final class TaskViews {
  private TaskViews() {}

  public static List<TaskView> of(JobGraph graph, Collection<StreamTask> running) {
    List<TaskView> views = new ArrayList<>();
    for (JobVertex vertex : graph.vertices()) {
      List<SubtaskView> subtasks = new ArrayList<>();
      for (StreamTask task : running) {
        if (task.deployment().vertex().id().equals(vertex.id())) {
          subtasks.add(subtaskOf(task));
        }
      }
      subtasks.sort(java.util.Comparator.comparingInt(SubtaskView::index));
      views.add(
          new TaskView(
              vertex.id(), vertex.name(), vertex.parallelism(), operatorsOf(vertex), subtasks));
    }
    return views;
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
              operator.setup().uid(), operator.recordsIn(), operator.recordsOut()));
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
        watermark == Long.MIN_VALUE ? null : watermark,
        counts);
  }
}

package io.weir.runtime.graph;

import io.weir.api.datastream.JobConfig;
import io.weir.api.graph.Partitioning;
import io.weir.api.graph.Transformation;
import java.util.ArrayList;
import java.util.List;

/** The job as it runs: tasks (chains) in topological order and the edges between them. */
public record JobGraph(
    String jobName, List<JobVertex> vertices, List<JobEdge> edges, JobConfig config) {

  public List<JobEdge> inputsOf(JobVertex vertex) {
    return edges.stream().filter(e -> e.target().equals(vertex)).toList();
  }

  public List<JobEdge> outputsOf(JobVertex vertex) {
    return edges.stream().filter(e -> e.source().equals(vertex)).toList();
  }

  /** Every operator with the parallelism of its task. */
  public List<Transformation> operators() {
    List<Transformation> operators = new ArrayList<>();
    vertices.forEach(v -> operators.addAll(v.chain()));
    return operators;
  }

  public JobVertex vertexOf(Transformation operator) {
    return vertices.stream().filter(v -> v.chain().contains(operator)).findFirst().orElseThrow();
  }

  /** 1 or 2: the input of {@code vertex} that {@code edge}, one of its incoming edges, feeds. */
  public int inputNumberOf(JobEdge edge) {
    List<JobEdge> inputs = inputsOf(edge.target());
    for (int i = 0; i < inputs.size(); i++) {
      if (inputs.get(i) == edge) {
        return i < edge.target().firstInputs() ? 1 : 2;
      }
    }
    throw new IllegalArgumentException(edge + " is not an edge of this graph");
  }

  /**
   * One task per line: its parallelism and its chained operators; a two-input task adds a line per
   * incoming edge, naming the input it feeds, the task it comes from and how it is partitioned.
   */
  public String describe() {
    StringBuilder text = new StringBuilder();
    for (JobVertex vertex : vertices) {
      text.append(vertex.name())
          .append("  (parallelism ")
          .append(vertex.parallelism())
          .append(")\n");
      if (vertex.isTwoInput()) {
        for (JobEdge edge : inputsOf(vertex)) {
          text.append("    input ")
              .append(inputNumberOf(edge))
              .append(" <- ")
              .append(edge.source().name())
              .append("  (")
              .append(partitioningName(edge))
              .append(")\n");
        }
      }
    }
    return text.toString();
  }

  /**
   * {@code forward}, {@code rebalance} or {@code hash}, as plans and the dashboard show an edge.
   */
  public static String partitioningName(JobEdge edge) {
    if (edge.partitioning() instanceof Partitioning.Hash) {
      return "hash";
    } else if (edge.partitioning() instanceof Partitioning.Broadcast) {
      return "broadcast";
    }
    return edge.partitioning() instanceof Partitioning.Rebalance ? "rebalance" : "forward";
  }
}

package io.weir.runtime.graph;

import io.weir.api.datastream.JobConfig;
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

  /** One task per line: its parallelism and its chained operators. */
  public String describe() {
    StringBuilder text = new StringBuilder();
    for (JobVertex vertex : vertices) {
      text.append(vertex.name())
          .append("  (parallelism ")
          .append(vertex.parallelism())
          .append(")\n");
    }
    return text.toString();
  }
}

package io.weir.runtime.jobmaster;

import io.weir.api.graph.Transformation;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import java.util.ArrayList;
import java.util.List;

/** The operators of a job graph as its checkpoints describe them. */
public final class OperatorInfos {
  private OperatorInfos() {}

  public static List<OperatorInfo> of(JobGraph graph) {
    List<OperatorInfo> infos = new ArrayList<>();
    for (JobVertex vertex : graph.vertices()) {
      for (Transformation t : vertex.chain()) {
        infos.add(
            new OperatorInfo(
                t.uid(), t.displayName(), vertex.parallelism(), graph.config().maxParallelism()));
      }
    }
    return infos;
  }
}

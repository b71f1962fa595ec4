package io.weir.runtime.jobmaster;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.api.sink.RecoverableSink;
import io.weir.runtime.graph.JobGraph;
import java.util.List;

/** The sinks of a job that commit in two phases, whose output a restore may commit again. */
final class TwoPhaseCommitSinks {
  private TwoPhaseCommitSinks() {}

  /** The display names of the job's two-phase-commit sinks, quoted, in graph order. */
  static List<String> namesIn(JobGraph graph) {
    return graph.operators().stream()
        .filter(TwoPhaseCommitSinks::isTwoPhaseCommitSink)
        .map(t -> "'" + t.displayName() + "'")
        .toList();
  }

  private static boolean isTwoPhaseCommitSink(Transformation transformation) {
    return transformation.spec() instanceof OperatorSpec.Sink sink
        && sink.function() instanceof RecoverableSink;
  }
}

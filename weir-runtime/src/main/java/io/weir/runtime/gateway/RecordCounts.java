package io.weir.runtime.gateway;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.runtime.operators.SourceOperator;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.task.StreamTask;
import java.util.Collection;

/**
 * Records read by a job's sources and written to its sinks, and records its sources sent to a
 * dead-letter topic, for progress lines, the job's result and the REST API. Read without
 * synchronization from the task threads' plain counters: a figure may lag a little, never block
 * them.
 */
public record RecordCounts(long in, long out, long deadLetters) {
  public static final RecordCounts NONE = new RecordCounts(0, 0, 0);

  public static RecordCounts of(Collection<StreamTask> tasks) {
    long in = 0;
    long out = 0;
    long deadLetters = 0;
    for (StreamTask task : tasks) {
      for (StreamOperator operator : task.operators()) {
        OperatorSpec spec = specOf(task, operator);
        if (spec instanceof OperatorSpec.Source) {
          in += operator.recordsOut();
          if (operator instanceof SourceOperator source) {
            deadLetters += source.deadLetterRecords();
          }
        } else if (spec instanceof OperatorSpec.Sink) {
          out += operator.recordsIn();
        }
      }
    }
    return new RecordCounts(in, out, deadLetters);
  }

  public RecordCounts plus(RecordCounts other) {
    return new RecordCounts(in + other.in, out + other.out, deadLetters + other.deadLetters);
  }

  private static OperatorSpec specOf(StreamTask task, StreamOperator operator) {
    for (Transformation t : task.deployment().vertex().chain()) {
      if (t.uid().equals(operator.setup().uid())) {
        return t.spec();
      }
    }
    return null;
  }
}

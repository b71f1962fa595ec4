package io.weir.api.sink;

import io.weir.api.annotation.Public;
import io.weir.api.functions.AbstractRichFunction;

/** Prints each record on standard output, prefixed with the subtask when parallel. */
@Public
public final class PrintSink<T> extends AbstractRichFunction implements SinkFunction<T> {
  @Override
  public void invoke(T value, Context context) {
    int parallelism = getRuntimeContext().parallelism();
    String prefix = parallelism > 1 ? (getRuntimeContext().subtaskIndex() + 1) + "> " : "";
    System.out.println(prefix + value);
  }
}

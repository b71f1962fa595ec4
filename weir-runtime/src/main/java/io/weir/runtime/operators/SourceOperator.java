package io.weir.runtime.operators;

import io.weir.api.source.DeadLetterCounting;
import io.weir.api.source.SourceFunction;

/**
 * Holds a {@link SourceFunction}. Its {@link #run} is called by the source task's thread; records
 * it emits go straight down the chain. Every emission happens while the source holds the checkpoint
 * lock (the source context takes it when the source did not).
 */
public final class SourceOperator extends AbstractStreamOperator<SourceFunction<Object>> {
  public SourceOperator(OperatorSetup setup, SourceFunction<Object> function, Output output) {
    super(setup, function, output);
  }

  public void run(SourceFunction.SourceContext<Object> context) throws Exception {
    function.run(context);
  }

  public void cancel() {
    function.cancel();
  }

  /** The chain's output, for the source context. */
  public Output output() {
    return output;
  }

  /** Records the source sent to a dead-letter topic in this attempt (0 for a source without). */
  public long deadLetterRecords() {
    return function instanceof DeadLetterCounting counting ? counting.deadLetterRecords() : 0;
  }

  public void countRecord() {
    recordsIn++;
  }

  @Override
  public void processElement(Object record, long timestamp) {
    throw new UnsupportedOperationException("A source has no input");
  }
}

package io.weir.runtime.operators;

import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TransactionView;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import java.util.List;

/** Hands each record to a {@link SinkFunction}. */
public final class SinkOperator extends AbstractStreamOperator<SinkFunction<Object>>
    implements SinkFunction.Context {
  private long timestamp;
  private long currentWatermark = Long.MIN_VALUE;

  public SinkOperator(OperatorSetup setup, SinkFunction<Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    this.timestamp = timestamp;
    function.invoke(record, this);
  }

  @Override
  public void processWatermark(long watermark) {
    currentWatermark = watermark;
  }

  @Override
  public List<TransactionView> transactions() {
    return function instanceof TwoPhaseCommitSinkFunction<?, ?, ?> twoPhaseCommit
        ? twoPhaseCommit.transactionViews()
        : List.of();
  }

  @Override
  public long timestamp() {
    return timestamp;
  }

  @Override
  public long currentWatermark() {
    return currentWatermark;
  }

  @Override
  public long currentProcessingTime() {
    return setup.timeService().currentTime();
  }
}

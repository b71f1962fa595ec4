package io.weir.runtime.operators;

import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TransactionView;
import java.util.List;

/**
 * Hands each record to a {@link SinkFunction}; tells {@code firstRecord} when the first one arrives
 * (once, on the task thread, before the sink sees the record).
 */
public final class SinkOperator extends AbstractStreamOperator<SinkFunction<Object>>
    implements SinkFunction.Context {
  private final Runnable firstRecord;
  private long timestamp;
  private long currentWatermark = Long.MIN_VALUE;

  public SinkOperator(OperatorSetup setup, SinkFunction<Object> function, Output output) {
    this(setup, function, output, () -> {});
  }

  public SinkOperator(
      OperatorSetup setup, SinkFunction<Object> function, Output output, Runnable firstRecord) {
    super(setup, function, output);
    this.firstRecord = firstRecord;
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    if (recordsIn == 0) {
      firstRecord.run();
    }
    recordsIn++;
    setKeyContextForFunction(record);
    this.timestamp = timestamp;
    function.invoke(record, this);
  }

  @Override
  public void processWatermark(long watermark) {
    currentWatermark = watermark;
  }

  @Override
  public List<TransactionView> transactions() {
    return function instanceof RecoverableSink recoverable
        ? recoverable.transactionViews()
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

package io.weir.runtime.operators;

import io.weir.api.functions.Collector;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessFunction;

/** Runs a {@link ProcessFunction}. */
public final class ProcessOperator extends AbstractStreamOperator<ProcessFunction<Object, Object>>
    implements Collector<Object>, ProcessFunction.Context {
  private long timestamp;
  private long currentWatermark = Long.MIN_VALUE;

  public ProcessOperator(
      OperatorSetup setup, ProcessFunction<Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    this.timestamp = timestamp;
    function.processElement(record, this, this);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    currentWatermark = watermark;
    super.processWatermark(watermark);
  }

  @Override
  public void collect(Object record) {
    try {
      output.collect(record, timestamp);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new OperatorException(e);
    }
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
  public <X> void output(OutputTag<X> tag, X value) {
    try {
      output.collectSide(tag, value, timestamp);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new OperatorException(e);
    }
  }
}

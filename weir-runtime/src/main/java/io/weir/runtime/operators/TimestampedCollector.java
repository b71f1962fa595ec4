package io.weir.runtime.operators;

import io.weir.api.functions.Collector;
import io.weir.api.functions.OutputTag;

/**
 * The collector handed to user functions: emits to the operator's output with the timestamp of the
 * record (or timer) being processed. One per operator, reused for every record.
 */
final class TimestampedCollector implements Collector<Object> {
  private final Output output;
  private long timestamp;

  TimestampedCollector(Output output) {
    this.output = output;
  }

  void setTimestamp(long timestamp) {
    this.timestamp = timestamp;
  }

  long timestamp() {
    return timestamp;
  }

  @Override
  public void collect(Object record) {
    try {
      output.collect(record, timestamp);
    } catch (Exception e) {
      throw OperatorException.unchecked(e);
    }
  }

  <X> void collectSide(OutputTag<X> tag, X value) {
    try {
      output.collectSide(tag, value, timestamp);
    } catch (Exception e) {
      throw OperatorException.unchecked(e);
    }
  }
}

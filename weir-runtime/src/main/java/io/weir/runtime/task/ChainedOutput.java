package io.weir.runtime.task;

import io.weir.api.functions.OutputTag;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.SideOutputOperator;
import io.weir.runtime.operators.StreamOperator;

/**
 * Hands records straight to the next operator of the chain: a method call, no copy, no queue. A
 * chained side-output operator takes only its tag's records; any other takes the main output.
 */
final class ChainedOutput implements Output {
  private final StreamOperator next;
  private final OutputTag<?> acceptedTag;

  ChainedOutput(StreamOperator next) {
    this.next = next;
    this.acceptedTag = next instanceof SideOutputOperator side ? side.tag() : null;
  }

  @Override
  public void collect(Object record, long timestamp) throws Exception {
    if (acceptedTag == null) {
      try {
        next.processElement(record, timestamp);
      } catch (Exception e) {
        throw OperatorFailure.of(next.setup().describe(), e);
      }
    }
  }

  @Override
  public void collectSide(OutputTag<?> tag, Object record, long timestamp) throws Exception {
    if (tag.equals(acceptedTag)) {
      try {
        next.processElement(record, timestamp);
      } catch (Exception e) {
        throw OperatorFailure.of(next.setup().describe(), e);
      }
    }
  }

  @Override
  public void emitWatermark(long watermark) throws Exception {
    next.processWatermark(watermark);
  }

  @Override
  public void emitWatermarkStatus(boolean idle) throws Exception {
    next.processWatermarkStatus(idle);
  }
}

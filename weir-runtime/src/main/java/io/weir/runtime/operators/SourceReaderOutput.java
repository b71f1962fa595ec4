package io.weir.runtime.operators;

import io.weir.api.source.ReaderOutput;

/**
 * The chain's output as a reader sees it: a record after an idle spell first says the subtask is
 * active again. Used on the task thread only.
 */
final class SourceReaderOutput implements ReaderOutput<Object> {
  private final Output output;
  private boolean idle;

  SourceReaderOutput(Output output) {
    this.output = output;
  }

  @Override
  public void collect(Object record) {
    collect(record, Long.MIN_VALUE);
  }

  @Override
  public void collect(Object record, long timestamp) {
    try {
      if (idle) {
        idle = false;
        output.emitWatermarkStatus(false);
      }
      output.collect(record, timestamp);
    } catch (Exception e) {
      throw OperatorException.unchecked(e);
    }
  }

  @Override
  public void emitWatermark(long watermark) {
    try {
      output.emitWatermark(watermark);
    } catch (Exception e) {
      throw OperatorException.unchecked(e);
    }
  }

  @Override
  public void markIdle() {
    if (idle) {
      return;
    }
    idle = true;
    try {
      output.emitWatermarkStatus(true);
    } catch (Exception e) {
      throw OperatorException.unchecked(e);
    }
  }
}

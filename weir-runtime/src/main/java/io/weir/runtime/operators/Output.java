package io.weir.runtime.operators;

import io.weir.api.functions.OutputTag;

/**
 * Where an operator emits: the next operator of its chain, or the record writers of its task.
 * Called only on the task thread.
 */
public interface Output {
  void collect(Object record, long timestamp) throws Exception;

  void collectSide(OutputTag<?> tag, Object record, long timestamp) throws Exception;

  void emitWatermark(long watermark) throws Exception;

  void emitWatermarkStatus(boolean idle) throws Exception;
}

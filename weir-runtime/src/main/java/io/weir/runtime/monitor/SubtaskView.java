package io.weir.runtime.monitor;

import java.util.List;

/**
 * One running subtask's counters, read without stopping it.
 *
 * @param recordsIn records into the chain's head (a source: records it emitted)
 * @param recordsOut records out of the chain's tail (a sink: the records it wrote)
 * @param blockedOnOutputMillis time spent waiting for room downstream (backpressure), since start
 * @param watermark the last watermark the subtask emitted, or null before the first
 * @param operators records in and out of each chained operator, head first
 */
public record SubtaskView(
    int index,
    String state,
    long recordsIn,
    long recordsOut,
    long blockedOnOutputMillis,
    Long watermark,
    List<OperatorCounts> operators) {

  public SubtaskView {
    operators = List.copyOf(operators);
  }

  public record OperatorCounts(String uid, long recordsIn, long recordsOut) {}
}

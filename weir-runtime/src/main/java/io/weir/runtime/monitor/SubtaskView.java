package io.weir.runtime.monitor;

import io.weir.api.sink.TransactionView;
import java.io.Serializable;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One running subtask's counters, read without stopping it: in the job manager's own JVM (a local
 * run), or sent by a task manager with its heartbeats (a cluster), the same figures either way.
 *
 * @param recordsIn records into the chain's head (a source: records it emitted)
 * @param recordsOut records out of the chain's tail (a sink: the records it wrote)
 * @param blockedOnOutputMillis time spent waiting for room downstream (backpressure), since start
 * @param maxInFlightBytes the most bytes of records in flight one unaligned checkpoint of the
 *     subtask stored, since start (0 for aligned checkpoints)
 * @param inputChannels what each channel of the subtask's input gate holds now, by channel (empty
 *     for a source)
 * @param watermark the last watermark the subtask emitted, or null before the first
 * @param operators records in and out of each chained operator, head first
 */
public record SubtaskView(
    int index,
    String state,
    long recordsIn,
    long recordsOut,
    long blockedOnOutputMillis,
    long maxInFlightBytes,
    List<InputChannelView> inputChannels,
    Long watermark,
    List<OperatorCounts> operators)
    implements Serializable {

  public SubtaskView {
    inputChannels = List.copyOf(inputChannels);
    operators = List.copyOf(operators);
  }

  /** The bytes queued on all input channels now, of those whose bytes are known. */
  public long queuedBytes() {
    return inputChannels.stream().mapToLong(channel -> Math.max(0, channel.queuedBytes())).sum();
  }

  /**
   * @param transactions a two-phase-commit sink's open and pending transactions; empty for any
   *     other operator
   * @param gauges the gauges the operator's function added, by name (the Kafka connectors': their
   *     clients' figures)
   */
  public record OperatorCounts(
      String uid,
      long recordsIn,
      long recordsOut,
      List<TransactionView> transactions,
      Map<String, Double> gauges)
      implements Serializable {
    public OperatorCounts {
      transactions = List.copyOf(transactions);
      gauges = Collections.unmodifiableSortedMap(new TreeMap<>(gauges));
    }
  }
}

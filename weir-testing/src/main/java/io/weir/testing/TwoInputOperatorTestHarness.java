package io.weir.testing;

import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import java.util.List;

/**
 * Drives one two-input operator (a co-map, co-process, keyed co-process or interval join) as {@link
 * OperatorTestHarness} drives a one-input operator: records of either input, watermarks (which the
 * operator sees as the minimum of both inputs', as a two-input task gives them), processing time,
 * snapshots, crashes and restores, also at another parallelism, and the mode that restores after
 * every input. Make one with the two-input factories of {@link OperatorHarnesses}.
 *
 * <pre>{@code
 * TwoInputOperatorTestHarness<Order, Payment, String> harness =
 *     OperatorHarnesses.forKeyedCoProcess(Order::id, Payment::orderId, new MatchFunction())
 *         .restoreAfterEveryInput()
 *         .open();
 * harness.processElement1(order, 10).processElement2(payment, 12);
 * }</pre>
 *
 * <p>Not thread-safe: call it from one thread, as a task calls its operators.
 *
 * @param <IN1> the records of the first input
 * @param <IN2> the records of the second input
 * @param <OUT> the records it emits
 */
public final class TwoInputOperatorTestHarness<IN1, IN2, OUT> implements AutoCloseable {
  private final OperatorTestHarness<IN1, OUT> harness;
  private final KeySelector<Object, ?> secondKey;

  TwoInputOperatorTestHarness(
      OperatorTestHarness<IN1, OUT> harness, KeySelector<Object, ?> secondKey) {
    this.harness = harness;
    this.secondKey = secondKey;
  }

  /** Processes a record of the first input, in the subtask of its key (or the next in turn). */
  public TwoInputOperatorTestHarness<IN1, IN2, OUT> processElement1(IN1 record, long timestamp)
      throws Exception {
    harness.processElement(record, timestamp);
    return this;
  }

  /** Processes a record of the second input, in the subtask of its key (or the next in turn). */
  public TwoInputOperatorTestHarness<IN1, IN2, OUT> processElement2(IN2 record, long timestamp)
      throws Exception {
    harness.processSecondElement(record, timestamp, secondKey);
    return this;
  }

  /**
   * Processes an element of a broadcast second input (a keyed broadcast process function) in every
   * subtask, as the runtime sends it.
   */
  public TwoInputOperatorTestHarness<IN1, IN2, OUT> processBroadcastElement(
      IN2 element, long timestamp) throws Exception {
    harness.processSecondElementInEverySubtask(element, timestamp);
    return this;
  }

  /** Gives every subtask the combined watermark of both inputs. */
  public TwoInputOperatorTestHarness<IN1, IN2, OUT> processWatermark(long watermark)
      throws Exception {
    harness.processWatermark(watermark);
    return this;
  }

  public TwoInputOperatorTestHarness<IN1, IN2, OUT> setProcessingTime(long time) throws Exception {
    harness.setProcessingTime(time);
    return this;
  }

  public TwoInputOperatorTestHarness<IN1, IN2, OUT> endInput() throws Exception {
    harness.endInput();
    return this;
  }

  /** See {@link OperatorTestHarness#snapshot()}. */
  public OperatorSnapshot snapshot() throws Exception {
    return harness.snapshot();
  }

  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    harness.notifyCheckpointComplete(checkpointId);
  }

  /** See {@link OperatorTestHarness#crash()}. */
  public void crash() {
    harness.crash();
  }

  /** See {@link OperatorTestHarness#restore(OperatorSnapshot, int)}. */
  public TwoInputOperatorTestHarness<IN1, IN2, OUT> restore(
      OperatorSnapshot snapshot, int parallelism) throws Exception {
    harness.restore(snapshot, parallelism);
    return this;
  }

  public TwoInputOperatorTestHarness<IN1, IN2, OUT> restore(OperatorSnapshot snapshot)
      throws Exception {
    harness.restore(snapshot);
    return this;
  }

  /** The records emitted so far by every subtask, in emission order, across restores. */
  public List<OUT> output() {
    return harness.output();
  }

  public List<Timestamped<OUT>> outputWithTimestamps() {
    return harness.outputWithTimestamps();
  }

  public <X> List<X> sideOutput(OutputTag<X> tag) {
    return harness.sideOutput(tag);
  }

  public List<Long> watermarks() {
    return harness.watermarks();
  }

  public void clearOutput() {
    harness.clearOutput();
  }

  public int parallelism() {
    return harness.parallelism();
  }

  @Override
  public void close() throws Exception {
    harness.close();
  }
}

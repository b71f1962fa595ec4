package io.weir.runtime.operators;

import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.state.BroadcastState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReadOnlyBroadcastState;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.List;

/**
 * Runs a {@link KeyedBroadcastProcessFunction}: the first input is keyed (keyed state and timers),
 * the second is broadcast, every element to every subtask, into broadcast states that the keyed
 * side reads.
 */
public final class KeyedBroadcastProcessOperator
    extends AbstractStreamOperator<KeyedBroadcastProcessFunction<Object, Object, Object, Object>>
    implements TwoInputStreamOperator {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private final List<MapStateDescriptor<?, ?>> descriptors;
  private final BroadcastSide broadcastSide = new BroadcastSide();
  private BroadcastStates broadcastStates;
  private KeyedSide keyedSide;

  public KeyedBroadcastProcessOperator(
      OperatorSetup setup,
      KeyedBroadcastProcessFunction<Object, Object, Object, Object> function,
      List<MapStateDescriptor<?, ?>> descriptors,
      Output output) {
    super(setup, function, output);
    if (!setup.isKeyed()) {
      throw new IllegalArgumentException(
          setup.describe() + " needs a keyed first input: connect a keyed stream to the broadcast");
    }
    this.descriptors = List.copyOf(descriptors);
  }

  @Override
  public void initializeState() throws Exception {
    // After the operator state is restored, before open(): open() already sees the entries.
    super.initializeState();
    broadcastStates = new BroadcastStates(descriptors, operatorStateStore(), setup.describe());
    keyedSide = new KeyedSide();
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement(record, keyedSide, collector);
  }

  @Override
  public void processElement2(Object record, long timestamp) throws Exception {
    recordsIn++;
    collector.setTimestamp(timestamp);
    function.processBroadcastElement(record, broadcastSide, collector);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    keyedSide.advanceWatermark(watermark);
    super.processWatermark(watermark);
  }

  @Override
  public OperatorSubtaskState snapshotState(long checkpointId, long timestamp) throws Exception {
    broadcastStates.snapshot();
    return super.snapshotState(checkpointId, timestamp);
  }

  /** The keyed side's view: the current key, its timers, broadcast states read-only. */
  private final class KeyedSide extends KeyedFunctionContext
      implements KeyedBroadcastProcessFunction.OnTimerContext<Object> {
    KeyedSide() {
      super(
          collector,
          keyedState,
          setup.timeService(),
          time -> function.onTimer(time, keyedSide, collector));
    }

    @Override
    public <K, V> ReadOnlyBroadcastState<K, V> getBroadcastState(
        MapStateDescriptor<K, V> descriptor) {
      return broadcastStates.readOnly(descriptor);
    }
  }

  /** The broadcast side's view: no current key, broadcast states writable. */
  private final class BroadcastSide implements KeyedBroadcastProcessFunction.Context {
    @Override
    public long timestamp() {
      return collector.timestamp();
    }

    @Override
    public long currentWatermark() {
      return keyedSide.currentWatermark();
    }

    @Override
    public <X> void output(OutputTag<X> tag, X value) {
      collector.collectSide(tag, value);
    }

    @Override
    public <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> descriptor) {
      return broadcastStates.get(descriptor);
    }
  }
}

package io.weir.runtime.operators;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.CommitsInBackground;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.checkpoint.LastCommitListener;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.RichFunction;
import io.weir.api.state.KeyedStateStore;
import io.weir.api.state.OperatorStateStore;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.OperatorStateBackend;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The lifecycle every operator shares: state backends, the user function's lifecycle (rich,
 * checkpointed, checkpoint listener), the key context and counters. Subclasses add what they do
 * with a record.
 */
public abstract class AbstractStreamOperator<F> implements StreamOperator {
  protected final OperatorSetup setup;
  protected final F function;
  protected final Output output;
  protected KeyedStateBackend keyedState;
  private OperatorStateBackend operatorState;
  private final KeySelector<Object, Object> keySelector;
  private final boolean functionSeesKeyedState;
  protected long recordsIn;
  private long recordsOut;
  private final OperatorGauges gauges = new OperatorGauges();

  @SuppressWarnings("unchecked")
  protected AbstractStreamOperator(OperatorSetup setup, F function, Output output) {
    this.setup = setup;
    this.function = function;
    this.output = new CountingOutput(output);
    this.keySelector = (KeySelector<Object, Object>) setup.keySelector();
    // Keyed state reaches a user function only through its runtime context (rich) or its
    // initialization context (checkpointed); any other function never reads the current key.
    this.functionSeesKeyedState =
        function instanceof RichFunction || function instanceof CheckpointedFunction;
  }

  @Override
  public OperatorSetup setup() {
    return setup;
  }

  @Override
  public void initializeState() throws Exception {
    operatorState = new OperatorStateBackend(setup.uid(), setup.restoredState());
    if (setup.isKeyed()) {
      keyedState =
          setup
              .keyedStateBackends()
              .create(
                  setup.uid(),
                  setup.subtaskIndex(),
                  setup.keyGroupRange(),
                  setup.maxParallelism(),
                  setup.restoredState());
    }
    if (function instanceof RichFunction rich) {
      rich.setRuntimeContext(new StreamRuntimeContext(setup, keyedState, gauges));
    }
    if (function instanceof CheckpointedFunction checkpointed) {
      checkpointed.initializeState(new InitializationContext());
    }
  }

  @Override
  public void open() throws Exception {
    if (function instanceof RichFunction rich) {
      rich.open();
    }
  }

  /** The operator's list states, available from {@link #initializeState} on. */
  protected final OperatorStateStore operatorStateStore() {
    return operatorState;
  }

  /** Makes the record's key the current key of keyed state; a no-op when not keyed. */
  protected final void setKeyContext(Object record) throws Exception {
    setKeyContext(record, keySelector);
  }

  /**
   * Makes the record's key by {@code selector} the current key; a no-op when the selector is null.
   * For an input keyed otherwise than the operator's first (the second input of a two-input
   * operator).
   */
  protected final void setKeyContext(Object record, KeySelector<Object, Object> selector)
      throws Exception {
    if (selector != null) {
      Object key = selector.getKey(record);
      if (key == null) {
        throw new NullPointerException("The key selector returned null for " + record);
      }
      keyedState.setCurrentKey(key);
    }
  }

  /**
   * Makes the record's key the current key when the user function can read keyed state; for any
   * other function the key would be computed a second time (the exchange computed it to route the
   * record) only to be ignored, so the record's path skips it.
   */
  protected final void setKeyContextForFunction(Object record) throws Exception {
    if (functionSeesKeyedState) {
      setKeyContext(record);
    }
  }

  /** As {@link #setKeyContextForFunction(Object)}, with the key by {@code selector}. */
  protected final void setKeyContextForFunction(Object record, KeySelector<Object, Object> selector)
      throws Exception {
    if (functionSeesKeyedState) {
      setKeyContext(record, selector);
    }
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    output.emitWatermark(watermark);
  }

  @Override
  public void processWatermarkStatus(boolean idle) throws Exception {
    output.emitWatermarkStatus(idle);
  }

  @Override
  public void endInput() throws Exception {}

  @Override
  public OperatorSubtaskState snapshotState(long checkpointId, long timestamp) throws Exception {
    if (function instanceof CheckpointedFunction checkpointed) {
      checkpointed.snapshotState(new SnapshotContext(checkpointId, timestamp));
    }
    return operatorState.snapshot(
        keyedState == null ? Map.of() : keyedState.snapshot(checkpointId));
  }

  @Override
  public Map<Integer, byte[]> materializeSnapshot(long checkpointId) throws Exception {
    return keyedState == null ? Map.of() : keyedState.materializeSnapshot(checkpointId);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    if (keyedState != null) {
      keyedState.notifyCheckpointComplete(checkpointId);
    }
    if (function instanceof CheckpointListener listener) {
      listener.notifyCheckpointComplete(checkpointId);
    }
  }

  @Override
  public boolean listensToCheckpoints() {
    return function instanceof CheckpointListener;
  }

  @Override
  public void awaitCommitsInFlight() throws Exception {
    if (function instanceof CommitsInBackground background) {
      background.awaitCommitsInFlight();
    }
  }

  @Override
  public void afterLastCommit() throws Exception {
    if (function instanceof LastCommitListener listener) {
      listener.afterLastCommit();
    }
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    if (function instanceof CheckpointListener listener) {
      listener.notifyCheckpointAborted(checkpointId);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      if (function instanceof RichFunction rich) {
        rich.close();
      }
    } finally {
      if (keyedState != null) {
        keyedState.close();
      }
    }
  }

  @Override
  public long recordsIn() {
    return recordsIn;
  }

  @Override
  public long recordsOut() {
    return recordsOut;
  }

  @Override
  public Map<String, Double> gauges() {
    return gauges.values();
  }

  private record SnapshotContext(long checkpointId, long checkpointTimestamp)
      implements FunctionSnapshotContext {}

  private final class InitializationContext implements FunctionInitializationContext {
    @Override
    public boolean isRestored() {
      return setup.isRestored();
    }

    @Override
    public OptionalLong restoredCheckpointId() {
      return setup.restoredCheckpointId();
    }

    /** Every attempt runs the job-level recovery step before it deploys a task. */
    @Override
    public boolean restoredTransactionsSettled() {
      return setup.isRestored();
    }

    @Override
    public OperatorStateStore getOperatorStateStore() {
      return operatorState;
    }

    @Override
    public KeyedStateStore getKeyedStateStore() {
      if (keyedState == null) {
        throw new IllegalStateException(
            "Keyed state is only available after keyBy; " + setup.describe() + " is not keyed");
      }
      return keyedState;
    }
  }

  /** Counts what the operator emits; sits between it and the next operator. */
  private final class CountingOutput implements Output {
    private final Output target;

    CountingOutput(Output target) {
      this.target = target;
    }

    @Override
    public void collect(Object record, long timestamp) throws Exception {
      recordsOut++;
      target.collect(record, timestamp);
    }

    @Override
    public void collectSide(OutputTag<?> tag, Object record, long timestamp) throws Exception {
      target.collectSide(tag, record, timestamp);
    }

    @Override
    public void emitWatermark(long watermark) throws Exception {
      target.emitWatermark(watermark);
    }

    @Override
    public void emitWatermarkStatus(boolean idle) throws Exception {
      target.emitWatermarkStatus(idle);
    }
  }
}

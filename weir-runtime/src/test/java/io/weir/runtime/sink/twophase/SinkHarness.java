package io.weir.runtime.sink.twophase;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.LeaseEpoch;
import io.weir.api.functions.RichFunction;
import io.weir.api.sink.SinkFunction;
import io.weir.api.state.KeyedStateStore;
import io.weir.api.state.OperatorStateStore;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Drives one sink subtask the way the runtime does: start or restore, records, snapshots,
 * notifications, close, and a crash that drops the sink without closing it, as {@code kill -9}
 * would. A restore builds a new sink and gives it state that went through serialization.
 */
public final class SinkHarness<
    IN, S extends SinkFunction<IN> & CheckpointedFunction & CheckpointListener> {
  /** The operator state of one snapshot, as bytes. */
  public record Snapshot(long checkpointId, Map<String, List<byte[]>> operatorState) {}

  private static final SinkFunction.Context RECORD_CONTEXT =
      new SinkFunction.Context() {
        @Override
        public long timestamp() {
          return Long.MIN_VALUE;
        }

        @Override
        public long currentWatermark() {
          return Long.MIN_VALUE;
        }

        @Override
        public long currentProcessingTime() {
          return 0;
        }
      };

  private final Supplier<S> sinkFactory;
  private final int subtaskIndex;
  private int attempt = -1;
  private CommitObserver commitObserver = CommitObserver.NONE;
  private LeaseEpoch leaseEpoch = LeaseEpoch.NONE;
  private S sink;
  private FakeOperatorStateStore stateStore;

  public SinkHarness(Supplier<S> sinkFactory, int subtaskIndex) {
    this.sinkFactory = sinkFactory;
    this.subtaskIndex = subtaskIndex;
  }

  /** What the sinks started from now on report their commits to. */
  public void observeCommits(CommitObserver observer) {
    this.commitObserver = observer;
  }

  /** The lease of the run the sinks started from now on belong to. */
  public void holdLease(LeaseEpoch epoch) {
    this.leaseEpoch = epoch;
  }

  /** Starts a new sink without state. */
  public S start() throws Exception {
    return launch(Map.of(), OptionalLong.empty());
  }

  /** Starts a new sink from a snapshot, as after a failover. */
  public S restore(Snapshot snapshot) throws Exception {
    return launch(snapshot.operatorState(), OptionalLong.of(snapshot.checkpointId()));
  }

  @SafeVarargs
  public final void process(IN... values) throws Exception {
    for (IN value : values) {
      sink.invoke(value, RECORD_CONTEXT);
    }
  }

  public Snapshot snapshot(long checkpointId) throws Exception {
    sink.snapshotState(snapshotContext(checkpointId));
    return new Snapshot(checkpointId, stateStore.snapshot());
  }

  public void notifyComplete(long checkpointId) throws Exception {
    sink.notifyCheckpointComplete(checkpointId);
  }

  public void notifyAborted(long checkpointId) throws Exception {
    sink.notifyCheckpointAborted(checkpointId);
  }

  /** Drops the sink without closing it. */
  public void crash() {
    sink = null;
    stateStore = null;
  }

  public void close() throws Exception {
    if (sink instanceof RichFunction rich) {
      rich.close();
    }
    sink = null;
  }

  public S sink() {
    return sink;
  }

  private S launch(Map<String, List<byte[]>> restoredState, OptionalLong restoredCheckpointId)
      throws Exception {
    attempt++;
    sink = sinkFactory.get();
    stateStore = new FakeOperatorStateStore(restoredState);
    if (sink instanceof RichFunction rich) {
      rich.setRuntimeContext(
          new FakeRuntimeContext(
              subtaskIndex, subtaskIndex + 1, attempt, commitObserver, leaseEpoch));
    }
    sink.initializeState(initializationContext(stateStore, restoredCheckpointId));
    if (sink instanceof RichFunction rich) {
      rich.open();
    }
    return sink;
  }

  private static FunctionInitializationContext initializationContext(
      OperatorStateStore store, OptionalLong restoredCheckpointId) {
    return new FunctionInitializationContext() {
      @Override
      public boolean isRestored() {
        return restoredCheckpointId.isPresent();
      }

      @Override
      public OptionalLong restoredCheckpointId() {
        return restoredCheckpointId;
      }

      @Override
      public OperatorStateStore getOperatorStateStore() {
        return store;
      }

      @Override
      public KeyedStateStore getKeyedStateStore() {
        throw new IllegalStateException("A sink has no keyed state");
      }
    };
  }

  private static FunctionSnapshotContext snapshotContext(long checkpointId) {
    return new FunctionSnapshotContext() {
      @Override
      public long checkpointId() {
        return checkpointId;
      }

      @Override
      public long checkpointTimestamp() {
        return checkpointId * 1000;
      }
    };
  }
}

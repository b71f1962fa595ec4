package io.weir.runtime.sink.twophase;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.functions.LeaseEpoch;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/** Where a sink under test runs: a subtask of a job, without keyed state. */
record FakeRuntimeContext(
    int subtaskIndex,
    int parallelism,
    int attempt,
    CommitObserver commitObserver,
    LeaseEpoch leaseEpoch)
    implements RuntimeContext {
  @Override
  public String jobName() {
    return "test-job";
  }

  @Override
  public String operatorName() {
    return "Sink: test";
  }

  @Override
  public int maxParallelism() {
    return 128;
  }

  @Override
  public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
    throw noKeyedState();
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    throw noKeyedState();
  }

  @Override
  public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
    throw noKeyedState();
  }

  @Override
  public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
    throw noKeyedState();
  }

  private static IllegalStateException noKeyedState() {
    return new IllegalStateException("A sink has no keyed state");
  }
}

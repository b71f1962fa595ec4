package io.weir.runtime.operators;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.functions.LeaseEpoch;
import io.weir.api.functions.MetricGroup;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.state.KeyedStateStore;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/** What a user function sees of its subtask. */
final class StreamRuntimeContext implements RuntimeContext {
  private final OperatorSetup setup;
  private final KeyedStateStore keyedState;
  private final MetricGroup metricGroup;

  StreamRuntimeContext(OperatorSetup setup, KeyedStateStore keyedState, MetricGroup metricGroup) {
    this.setup = setup;
    this.keyedState = keyedState;
    this.metricGroup = metricGroup;
  }

  @Override
  public String jobName() {
    return setup.jobName();
  }

  @Override
  public String operatorName() {
    return setup.name();
  }

  @Override
  public String operatorUid() {
    return setup.uid();
  }

  @Override
  public int subtaskIndex() {
    return setup.subtaskIndex();
  }

  @Override
  public int parallelism() {
    return setup.parallelism();
  }

  @Override
  public int maxParallelism() {
    return setup.maxParallelism();
  }

  @Override
  public int attempt() {
    return setup.attempt();
  }

  @Override
  public LeaseEpoch leaseEpoch() {
    return setup.leaseEpoch();
  }

  @Override
  public CommitObserver commitObserver() {
    return setup.commitObserver();
  }

  @Override
  public MetricGroup metricGroup() {
    return metricGroup;
  }

  private KeyedStateStore keyed() {
    if (keyedState == null) {
      throw new IllegalStateException(
          "Keyed state is only available after keyBy; operator "
              + setup.describe()
              + " is not keyed");
    }
    return keyedState;
  }

  @Override
  public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
    return keyed().getState(descriptor);
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    return keyed().getListState(descriptor);
  }

  @Override
  public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
    return keyed().getMapState(descriptor);
  }

  @Override
  public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
    return keyed().getReducingState(descriptor);
  }
}

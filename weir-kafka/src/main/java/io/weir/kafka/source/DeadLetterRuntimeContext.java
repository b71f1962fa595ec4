package io.weir.kafka.source;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.functions.MetricGroup;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/**
 * The source's runtime context as its dead-letter sink sees it: the same subtask, but no commit
 * observer, so that the failpoints {@code sink.commit.before|after} keep counting the commits of
 * the job's sinks only, with or without a dead-letter topic; its gauges go to the source's group.
 */
final class DeadLetterRuntimeContext implements RuntimeContext {
  private final RuntimeContext source;

  DeadLetterRuntimeContext(RuntimeContext source) {
    this.source = source;
  }

  @Override
  public String jobName() {
    return source.jobName();
  }

  @Override
  public String operatorName() {
    return source.operatorName();
  }

  @Override
  public String operatorUid() {
    return source.operatorUid();
  }

  @Override
  public int subtaskIndex() {
    return source.subtaskIndex();
  }

  @Override
  public int parallelism() {
    return source.parallelism();
  }

  @Override
  public int maxParallelism() {
    return source.maxParallelism();
  }

  @Override
  public int attempt() {
    return source.attempt();
  }

  @Override
  public CommitObserver commitObserver() {
    return CommitObserver.NONE;
  }

  /** The source's group, the dead-letter sink's gauges named apart from the source's own. */
  @Override
  public MetricGroup metricGroup() {
    return (name, value) -> source.metricGroup().gauge("dead_letter_" + name, value);
  }

  @Override
  public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
    return source.getState(descriptor);
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    return source.getListState(descriptor);
  }

  @Override
  public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
    return source.getMapState(descriptor);
  }

  @Override
  public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
    return source.getReducingState(descriptor);
  }
}

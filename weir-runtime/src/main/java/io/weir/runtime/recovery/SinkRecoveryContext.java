package io.weir.runtime.recovery;

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

/**
 * What the job-level recovery step's copy of a sink knows of where it runs: the job, the operator
 * and the run's lease, its fencing token. The step runs no subtask, so there is no subtask index
 * and no keyed state to ask for.
 */
public record SinkRecoveryContext(
    String jobName,
    String operatorName,
    String operatorUid,
    int parallelism,
    int maxParallelism,
    LeaseEpoch leaseEpoch)
    implements RuntimeContext {

  @Override
  public int subtaskIndex() {
    throw noSubtask();
  }

  @Override
  public int attempt() {
    throw noSubtask();
  }

  @Override
  public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
    throw noSubtask();
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    throw noSubtask();
  }

  @Override
  public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
    throw noSubtask();
  }

  @Override
  public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
    throw noSubtask();
  }

  private IllegalStateException noSubtask() {
    return new IllegalStateException(
        "Sink '" + operatorName + "' is being recovered by its job, not run by a subtask");
  }
}

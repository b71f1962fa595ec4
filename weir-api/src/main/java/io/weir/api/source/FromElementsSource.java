package io.weir.api.source;

import io.weir.api.annotation.Public;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import java.util.ArrayList;
import java.util.List;

/** Emits a fixed list of elements once, resuming after the last checkpointed element. */
@Public
public final class FromElementsSource<T> implements SourceFunction<T>, CheckpointedFunction {
  private final ArrayList<T> elements;
  private transient ListState<Integer> positionState;
  private transient int position;
  private transient volatile boolean running;

  public FromElementsSource(List<T> elements) {
    this.elements = new ArrayList<>(elements);
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    positionState =
        context.getOperatorStateStore().getListState(new ListStateDescriptor<>("position"));
    position = positionState.get().stream().mapToInt(Integer::intValue).max().orElse(0);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    positionState.update(List.of(position));
  }

  @Override
  public void run(SourceContext<T> context) {
    running = true;
    while (running && position < elements.size()) {
      synchronized (context.getCheckpointLock()) {
        context.collect(elements.get(position));
        position++;
      }
    }
  }

  @Override
  public void cancel() {
    running = false;
  }
}

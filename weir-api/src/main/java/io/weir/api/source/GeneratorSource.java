package io.weir.api.source;

import io.weir.api.annotation.Public;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.Function;
import io.weir.api.functions.RichFunction;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import java.util.List;

/**
 * Generates records {@code 0 .. count-1} with a function of the index; subtask {@code i} of {@code
 * p} makes the indexes {@code i, i+p, i+2p, ...}. Its position is checkpointed, so after a restore
 * it goes on where the checkpoint was taken. Restoring it needs the same parallelism. An optional
 * rate (records per second per subtask) paces it for tests and demos.
 */
@Public
public final class GeneratorSource<T>
    implements ParallelSourceFunction<T>, CheckpointedFunction, RichFunction {

  /** Makes the record of one index. */
  @FunctionalInterface
  public interface Generator<T> extends Function {
    T generate(long index);
  }

  private final long count;
  private final Generator<T> generator;
  private final long recordsPerSecond;
  private transient RuntimeContext runtimeContext;
  private transient ListState<Long> nextIndexState;
  private transient long nextIndex;
  private transient volatile boolean running;

  public GeneratorSource(long count, Generator<T> generator) {
    this(count, generator, 0);
  }

  public GeneratorSource(long count, Generator<T> generator, long recordsPerSecond) {
    this.count = count;
    this.generator = generator;
    this.recordsPerSecond = recordsPerSecond;
  }

  @Override
  public void setRuntimeContext(RuntimeContext context) {
    this.runtimeContext = context;
  }

  @Override
  public RuntimeContext getRuntimeContext() {
    return runtimeContext;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) {
    nextIndexState =
        context.getOperatorStateStore().getListState(new ListStateDescriptor<>("next-index"));
    List<Long> restored = nextIndexState.get();
    nextIndex = restored.isEmpty() ? runtimeContext.subtaskIndex() : restored.get(0);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) {
    nextIndexState.update(List.of(nextIndex));
  }

  @Override
  public void run(SourceContext<T> context) throws InterruptedException {
    running = true;
    int stride = runtimeContext.parallelism();
    long started = System.nanoTime();
    long emitted = 0;
    while (running && nextIndex < count) {
      synchronized (context.getCheckpointLock()) {
        context.collect(generator.generate(nextIndex));
        nextIndex += stride;
      }
      emitted++;
      if (recordsPerSecond > 0) {
        long due = started + emitted * 1_000_000_000L / recordsPerSecond;
        long wait = due - System.nanoTime();
        if (wait > 0) {
          Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
        }
      }
    }
  }

  @Override
  public void cancel() {
    running = false;
  }
}

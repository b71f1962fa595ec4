package io.weir.runtime.eventtime;

import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.source.ParallelSourceFunction;
import io.weir.runtime.execution.CollectSink;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Two subtasks: the first emits {@code 0, 1, 2, ...} (the value is the event time) every few
 * milliseconds, the second stays silent; both stop once the sink {@code sinkName} received a result
 * or the patience ran out. Whether it ran out is kept for the test to read.
 */
final class SilentSubtaskSource extends AbstractRichFunction
    implements ParallelSourceFunction<Long> {
  private static final Map<String, Boolean> RAN_OUT_OF_PATIENCE = new ConcurrentHashMap<>();
  private final String sinkName;
  private final long patienceMillis;
  private transient volatile boolean running;

  SilentSubtaskSource(String sinkName, long patienceMillis) {
    this.sinkName = sinkName;
    this.patienceMillis = patienceMillis;
  }

  /** Whether the sources gave up waiting for a result (true when no result came in time). */
  static boolean ranOutOfPatience(String sinkName) {
    return RAN_OUT_OF_PATIENCE.getOrDefault(sinkName, false);
  }

  @Override
  public void run(SourceContext<Long> context) throws InterruptedException {
    running = true;
    boolean emits = getRuntimeContext().subtaskIndex() == 0;
    long deadline = System.currentTimeMillis() + patienceMillis;
    long next = 0;
    while (running && CollectSink.results(sinkName).isEmpty()) {
      if (System.currentTimeMillis() > deadline) {
        RAN_OUT_OF_PATIENCE.put(sinkName, true);
        return;
      }
      if (emits) {
        synchronized (context.getCheckpointLock()) {
          context.collect(next++);
        }
      }
      // Paces the emitting subtask; the silent one just looks again.
      Thread.sleep(5);
    }
  }

  @Override
  public void cancel() {
    running = false;
  }
}

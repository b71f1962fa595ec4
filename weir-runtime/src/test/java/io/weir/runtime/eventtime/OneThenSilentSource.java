package io.weir.runtime.eventtime;

import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.source.SourceFunction;
import io.weir.runtime.execution.CollectSink;

/**
 * Emits one record, {@code 0}, then stays silent until the sink {@code sinkName} received a result
 * or the patience ran out: an input that goes idle after its first record.
 */
final class OneThenSilentSource extends AbstractRichFunction implements SourceFunction<Long> {
  private final String sinkName;
  private final long patienceMillis;
  private transient volatile boolean running;

  OneThenSilentSource(String sinkName, long patienceMillis) {
    this.sinkName = sinkName;
    this.patienceMillis = patienceMillis;
  }

  @Override
  public void run(SourceContext<Long> context) throws InterruptedException {
    running = true;
    synchronized (context.getCheckpointLock()) {
      context.collect(0L);
    }
    long deadline = System.currentTimeMillis() + patienceMillis;
    while (running
        && CollectSink.results(sinkName).isEmpty()
        && System.currentTimeMillis() <= deadline) {
      // Looks again now and then; it has nothing to emit.
      Thread.sleep(5);
    }
  }

  @Override
  public void cancel() {
    running = false;
  }
}

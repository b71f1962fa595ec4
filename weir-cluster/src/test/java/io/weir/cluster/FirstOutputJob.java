package io.weir.cluster;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.SourceFunction;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A source that emits {@link #RECORDS} ids only once a checkpoint completed -> exactly-once file
 * sink, with a checkpoint interval of ten minutes: only a checkpoint made due by the sink's first
 * record commits the ids within the interval. Argument: the output directory.
 */
public final class FirstOutputJob {
  static final int RECORDS = 100;

  private FirstOutputJob() {}

  public static void main(String[] args) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(1);
    env.enableCheckpointing(Duration.ofMinutes(10));
    env.addSource(new HeldSource())
        .name("Held")
        .uid("held")
        .map(id -> "id-" + id)
        .uid("label")
        .addSink(FileSink.<String>forDirectory(Path.of(args[0])).build())
        .name("Files")
        .uid("files");
    env.execute("first-output");
  }

  /** Emits its ids once a checkpoint completed, then waits to be cancelled. */
  static final class HeldSource implements SourceFunction<Long>, CheckpointListener {
    private static final long serialVersionUID = 1L;
    private volatile boolean released;
    private volatile boolean running = true;

    @Override
    public void run(SourceContext<Long> context) throws Exception {
      // Woken by the checkpoint's notification or by the cancel, both on other threads.
      synchronized (this) {
        while (running && !released) {
          wait();
        }
      }
      synchronized (context.getCheckpointLock()) {
        for (long id = 0; id < RECORDS && running; id++) {
          context.collect(id);
        }
      }
      synchronized (this) {
        while (running) {
          wait();
        }
      }
    }

    @Override
    public synchronized void cancel() {
      running = false;
      notifyAll();
    }

    @Override
    public synchronized void notifyCheckpointComplete(long checkpointId) {
      released = true;
      notifyAll();
    }
  }
}

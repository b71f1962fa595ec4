package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.SourceFunction;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The first record that reaches a sink makes the next checkpoint due at once: the job's first
 * output is committed long before the checkpoint interval has passed again.
 */
@Timeout(60)
class FirstOutputCheckpointTest {
  private static final long RECORDS = 100;

  @BeforeEach
  void reset() {
    RecordingTwoPhaseSink.reset();
    HeldSource.RELEASED.set(false);
  }

  @Test
  void when_firstOutputComesAfterTheFirstCheckpoint_then_itIsCommittedWithoutWaitingAnInterval()
      throws Exception {
    // given: an interval of a minute, and a source that emits only once checkpoint 1 completed
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.enableCheckpointing(Duration.ofMinutes(1));
    env.addSource(new HeldSource()).addSink(new RecordingTwoPhaseSink());

    // when
    JobClient client = env.executeAsync("first-output");

    // then: its records are committed well within the interval
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> RecordingTwoPhaseSink.committedRecords().size() == RECORDS);
      assertThat(HeldSource.RELEASED).isTrue();
      assertThat(RecordingTwoPhaseSink.committedRecords())
          .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RECORDS).boxed().toList());
    } finally {
      client.cancel();
    }
  }

  /** Emits {@link #RECORDS} records once a checkpoint completed, then waits to be cancelled. */
  static final class HeldSource implements SourceFunction<Long>, CheckpointListener {
    private static final long serialVersionUID = 1L;
    // Static: the job runs a serialized copy of this source.
    static final AtomicBoolean RELEASED = new AtomicBoolean();
    private volatile boolean running = true;

    @Override
    public void run(SourceContext<Long> context) throws Exception {
      // Woken by the checkpoint's notification or by the cancel, both on other threads.
      synchronized (this) {
        while (running && !RELEASED.get()) {
          wait();
        }
      }
      synchronized (context.getCheckpointLock()) {
        for (long i = 0; i < RECORDS && running; i++) {
          context.collect(i);
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
      RELEASED.set(true);
      notifyAll();
    }
  }
}

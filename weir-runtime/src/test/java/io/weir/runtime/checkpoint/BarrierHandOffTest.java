package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.SourceFunction;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A source that takes the checkpoint lock again the moment it let it go does not keep a barrier
 * out: the checkpoint gets the lock at the source's next request for it, not after as many
 * emissions as the lock's unfairness happens to allow.
 */
@Timeout(60)
class BarrierHandOffTest {
  private static final long HOLD_MILLIS = 20;
  private static final int CHECKPOINTS = 20;

  @BeforeEach
  void reset() {
    GreedySource.HOLDS_BEFORE_SNAPSHOT.clear();
  }

  @Test
  void when_theSourceRetakesTheLockAtOnce_then_eachBarrierWaitsForAtMostTheNextEmission()
      throws Exception {
    // given: a source that holds the lock 20 ms an emission and re-takes it at once
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofMillis(100));
    env.addSource(new GreedySource()).addSink(new DiscardingSink<>());

    // when
    JobClient client = env.executeAsync("barrier-hand-off");

    // then: between a checkpoint's trigger and its snapshot the source began no emission, or the
    // one it was about to begin when the barrier asked for the lock; mostly none. Without the
    // hand-off, the lock's unfairness let it begin up to three, and one or more in most of them
    try {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> GreedySource.HOLDS_BEFORE_SNAPSHOT.size() >= CHECKPOINTS);
      assertThat(GreedySource.HOLDS_BEFORE_SNAPSHOT).allSatisfy(h -> assertThat(h).isLessThan(2));
      assertThat(GreedySource.HOLDS_BEFORE_SNAPSHOT.stream().filter(h -> h == 0).count())
          .isGreaterThanOrEqualTo(CHECKPOINTS / 2);
    } finally {
      client.cancel();
    }
  }

  /** Emits one record per hold of the checkpoint lock, each hold 20 ms long, without a pause. */
  static final class GreedySource implements SourceFunction<Long>, CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    // Static: the job runs a serialized copy of this source. Per snapshot: the emissions begun
    // after its checkpoint was triggered.
    static final List<Long> HOLDS_BEFORE_SNAPSHOT = new CopyOnWriteArrayList<>();
    private transient volatile boolean running;
    // Guarded by the checkpoint lock.
    private transient long[] holdStarts;
    private transient int holds;

    @Override
    public void initializeState(FunctionInitializationContext context) {
      holdStarts = new long[1 << 16];
    }

    @Override
    public void run(SourceContext<Long> context) throws Exception {
      running = true;
      while (running && holds < holdStarts.length) {
        synchronized (context.getCheckpointLock()) {
          holdStarts[holds] = System.currentTimeMillis();
          context.collect((long) holds);
          Thread.sleep(HOLD_MILLIS);
          holds++;
        }
      }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      long begun = 0;
      for (int i = holds - 1; i >= 0 && holdStarts[i] >= context.checkpointTimestamp(); i--) {
        begun++;
      }
      HOLDS_BEFORE_SNAPSHOT.add(begun);
    }

    @Override
    public void cancel() {
      running = false;
    }
  }
}

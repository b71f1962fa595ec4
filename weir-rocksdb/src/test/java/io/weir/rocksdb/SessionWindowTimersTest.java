package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.datastream.JobConfig;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.EventTimeSessionWindows;
import io.weir.runtime.operators.OperatorFactory;
import io.weir.runtime.operators.OperatorSetup;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.ProcessingTimeService;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timers a session window operator keeps on RocksDB: a session whose end moves with each record
 * keeps the timer of its current end only, instead of one timer per record left to fire later into
 * no window (each a read and a write of the key's windows).
 */
class SessionWindowTimersTest {
  private static final String OPERATOR_UID = "sessions";
  private static final String TIMERS = "timer-queue:__timers.event-time";
  private static final long KEYS = 100;
  private static final long RECORDS_PER_KEY = 50;
  private static final Duration GAP = Duration.ofMillis(10);

  @TempDir Path jobDirectory;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  /** Counts a window's records; a class, so that its accumulator's type is declared. */
  static final class CountRecords implements AggregateFunction<Long, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(Long record, Long count) {
      return count + 1;
    }

    @Override
    public Long getResult(Long count) {
      return count;
    }

    @Override
    public Long merge(Long first, Long second) {
      return first + second;
    }
  }

  /** Processing time that never moves: the sessions here are of event time. */
  static final class EventTimeOnly implements ProcessingTimeService {
    @Override
    public long currentTime() {
      return 0;
    }

    @Override
    public void schedule(long time, Callback callback) {}
  }

  @Test
  void when_eachRecordMovesItsSessionsEnd_then_eachSessionKeepsOneTimer() throws Exception {
    // given: sessions of gap 10 on RocksDB
    TestBackends backends = new TestBackends(jobDirectory, OPERATOR_UID);
    List<Long> counts = new ArrayList<>();
    StreamOperator operator = sessions(backends, counts);
    // when: every key's records come 5 apart, so each moves the end of the key's one session
    for (long time = 0; time < 5 * RECORDS_PER_KEY; time += 5) {
      for (long key = 0; key < KEYS; key++) {
        operator.processElement(key, time);
      }
    }
    Map<Integer, byte[]> checkpoint = operator.snapshotState(1, 0).keyGroups();
    operator.materializeSnapshot(1);
    operator.processWatermark(Long.MAX_VALUE);
    operator.close();
    // then: the checkpoint holds one timer per session, and each session counts all its records
    long[] timers = {0};
    try (KeyedStateBackend restored = backends.backend(0, 1, backends.restored(checkpoint, 1))) {
      ((RocksDbKeyedStateBackend) restored).countEntries(TIMERS, () -> timers[0]++);
    }
    assertThat(timers[0]).isEqualTo(KEYS);
    assertThat(counts).hasSize((int) KEYS).containsOnly(RECORDS_PER_KEY);
  }

  private static StreamOperator sessions(TestBackends backends, List<Long> counts)
      throws Exception {
    KeySelector<Long, Long> byValue = value -> value;
    OperatorSetup setup =
        new OperatorSetup(
            OPERATOR_UID,
            "Sessions",
            "job",
            0,
            1,
            TestBackends.MAX_PARALLELISM,
            0,
            byValue,
            OperatorSubtaskState.EMPTY,
            OptionalLong.empty(),
            new EventTimeOnly(),
            CommitObserver.NONE,
            backends.keyedStateBackends());
    StreamOperator operator =
        OperatorFactory.create(
            new OperatorSpec.Window(
                EventTimeSessionWindows.withGap(GAP), null, new CountRecords(), 0, null),
            setup,
            new Output() {
              @Override
              public void collect(Object record, long timestamp) {
                counts.add((Long) record);
              }

              @Override
              public void collectSide(OutputTag<?> tag, Object record, long timestamp) {}

              @Override
              public void emitWatermark(long watermark) {}

              @Override
              public void emitWatermarkStatus(boolean idle) {}
            },
            new JobConfig());
    operator.initializeState();
    operator.open();
    return operator;
  }
}

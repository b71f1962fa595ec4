package io.weir.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.task.DiscoveredSequenceSource.Discovered;
import io.weir.runtime.task.PulledSourceTaskTest.CountPerId;
import io.weir.runtime.task.PulledSourceTaskTest.MaxCountSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A source's enumerator on the job manager discovers splits while the job runs and assigns them to
 * readers; its state goes into each checkpoint's metadata and comes back on restore, so a split
 * assigned after a checkpoint is assigned again, and none is read twice or skipped, also when the
 * job restores with more readers.
 */
@Timeout(180)
class SplitEnumeratorTest {
  private static final String SOURCE_UID = "discovered-sequences";

  // Ids at which the map fails, each once (static: the job runs copies of the functions).
  static final Set<Long> FAIL_AT = ConcurrentHashMap.newKeySet();

  @BeforeEach
  void reset() {
    PulledSourceTaskTest.COUNT_PER_ID.clear();
    FAIL_AT.clear();
    DiscoveredSequenceSource.RESTORED_ENUMERATORS.set(0);
  }

  @Test
  void when_theJobFailsWhileSplitsAreDiscovered_then_everyIdIsCountedExactlyOnce()
      throws Exception {
    // given: twelve sequences discovered one at a time by the enumerator, and a map that fails
    // once in each of three of them, so restores fall between a discovery and the next checkpoint
    int splits = 12;
    long perSplit = 2_000;
    FAIL_AT.addAll(List.of(3 * perSplit + 700, 7 * perSplit + 100, 10 * perSplit + 1_500));
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(20));
    env.setRestartStrategy(RestartStrategy.fixedDelay(10, Duration.ofMillis(5)));
    build(env, new DiscoveredSequenceSource(splits, perSplit, Duration.ofMillis(40)));

    // when
    JobResult result = env.execute("discovered-splits-exactly-once");

    // then: the enumerators of the later attempts started from a checkpoint's state, and every id
    // was counted once in the state that survived
    assertThat(FAIL_AT).isEmpty();
    assertThat(result.restarts()).isEqualTo(3);
    assertThat(DiscoveredSequenceSource.RESTORED_ENUMERATORS.get()).isPositive();
    assertEveryIdOnce(splits, perSplit);
  }

  @Test
  void when_restoredWithThreeReadersInsteadOfTwo_then_splitsDiscoveredLaterAreReadOnce(
      @TempDir Path dir) throws Exception {
    // given: two readers, and a savepoint taken while the enumerator has discovered only a part of
    // nine sequences
    int splits = 9;
    long perSplit = 3_000;
    StreamEnvironment first = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    first.enableCheckpointing(Duration.ofSeconds(30));
    build(first, new DiscoveredSequenceSource(splits, perSplit, Duration.ofMillis(300)));
    JobClient client = first.executeAsync("discovered-splits-rescale");
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> PulledSourceTaskTest.COUNT_PER_ID.size() > 1_000);
    Path savepoint = client.triggerSavepoint(dir.resolve("savepoint")).get();
    client.cancel();
    Discovered atSavepoint = enumeratorStateOf(CheckpointLoader.load(savepoint));
    assertThat(atSavepoint.discovered()).isBetween(1, splits - 1);

    // when: the same job restores it with three readers and runs to the end
    StreamEnvironment second = StreamEnvironment.getExecutionEnvironment().setParallelism(3);
    second.fromCheckpoint(savepoint);
    build(second, new DiscoveredSequenceSource(splits, perSplit, Duration.ofMillis(20)));
    second.execute("discovered-splits-rescale");

    // then
    assertThat(DiscoveredSequenceSource.RESTORED_ENUMERATORS.get()).isEqualTo(1);
    assertEveryIdOnce(splits, perSplit);
  }

  /** Fails at each id of {@link #FAIL_AT} the first time it comes. */
  static final class FailOnceAt implements MapFunction<Long, Long> {
    @Override
    public Long map(Long id) {
      if (FAIL_AT.remove(id)) {
        throw new IllegalStateException("injected failure at id " + id);
      }
      return id;
    }
  }

  private static void build(StreamEnvironment env, DiscoveredSequenceSource source) {
    env.addSource(source)
        .uid(SOURCE_UID)
        .map(new FailOnceAt())
        .uid("failing")
        .keyBy(id -> id)
        .map(new CountPerId())
        .uid("count")
        .addSink(new MaxCountSink())
        .uid("max");
  }

  private static Discovered enumeratorStateOf(CompletedCheckpoint checkpoint) {
    Map<String, byte[]> states = checkpoint.enumeratorStates();
    assertThat(states).containsKey(SOURCE_UID);
    return (Discovered) StateSerializer.java().deserialize(states.get(SOURCE_UID));
  }

  private static void assertEveryIdOnce(int splits, long perSplit) {
    Map<Long, Long> counts = PulledSourceTaskTest.COUNT_PER_ID;
    assertThat(counts).hasSize((int) (splits * perSplit));
    for (long id = 0; id < splits * perSplit; id++) {
      assertThat(counts.get(id)).as("count of id %d", id).isEqualTo(1L);
    }
  }
}

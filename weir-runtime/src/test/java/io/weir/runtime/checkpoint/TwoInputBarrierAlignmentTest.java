package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Barrier alignment at a two-input task whose inputs have different types and speeds: the first
 * input (numbers) is fast, the second (the same kind of ids as text) slow. A barrier on the fast
 * input holds it until the slow input's barrier arrives, so each checkpoint of the co-map's state
 * holds exactly the records before both sources' barriers, as the sources' positions in the same
 * checkpoint say.
 */
@Timeout(60)
class TwoInputBarrierAlignmentTest {
  private static final long FAST_RECORDS = 8_000;
  private static final long SLOW_FIRST_ID = 1_000_000;
  private static final long SLOW_RECORDS = 1_200;

  @TempDir Path checkpointRoot;

  @Test
  void when_exactlyOnce_then_eachSnapshotHoldsExactlyTheRecordsBeforeBothInputsBarriers()
      throws Exception {
    // when
    JobResult result = runJob(CheckpointingMode.EXACTLY_ONCE);

    // then
    List<Path> checkpoints = checkpoints();
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    assertThat(checkpoints).hasSizeGreaterThanOrEqualTo(3);
    for (Path checkpoint : checkpoints) {
      Observed observed = observe(checkpoint);
      assertThat(observed.seen())
          .as("ids in the snapshot of %s", checkpoint.getFileName())
          .isEqualTo(observed.beforeBarriers());
    }
  }

  @Test
  void when_atLeastOnce_then_checkpointsCompleteAndHoldAtLeastTheRecordsBeforeTheBarriers()
      throws Exception {
    // when
    JobResult result = runJob(CheckpointingMode.AT_LEAST_ONCE);

    // then
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    for (Path checkpoint : checkpoints()) {
      Observed observed = observe(checkpoint);
      assertThat(observed.seen()).containsAll(observed.beforeBarriers());
    }
  }

  private JobResult runJob(CheckpointingMode mode) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofMillis(50), mode);
    env.setCheckpointDirectory(checkpointRoot);
    env.config().retainedCheckpoints(1_000);
    DataStream<Long> fast =
        env.addSource(new SplitSequenceSource("fast", 0, FAST_RECORDS, 1, 8_000)).uid("fast");
    DataStream<String> slow =
        env.addSource(new SplitSequenceSource("slow", SLOW_FIRST_ID, SLOW_RECORDS, 1, 1_000))
            .uid("slow")
            .rebalance()
            .map(new BarrierAlignmentTest.SlowMap())
            .uid("slow-map")
            .map(String::valueOf)
            .uid("as-text");
    fast.connect(slow)
        .map(new SeenRecorder())
        .uid("recorder")
        .addSink(new DiscardingSink<>())
        .uid("sink");
    return env.execute("two-input-alignment");
  }

  private List<Path> checkpoints() throws Exception {
    return CheckpointLayout.checkpointDirectoriesNewestFirst(
        checkpointRoot.resolve("two-input-alignment"));
  }

  private record Observed(Set<Long> seen, Set<Long> beforeBarriers) {}

  private static Observed observe(Path checkpoint) throws Exception {
    CompletedCheckpoint completed = CheckpointLoader.load(checkpoint);
    Set<Long> seen = new TreeSet<>(elements(completed, "recorder", SeenRecorder.STATE_NAME));
    Set<Long> before = new TreeSet<>();
    addBefore(before, completed, "fast", 0);
    addBefore(before, completed, "slow", SLOW_FIRST_ID);
    return new Observed(seen, before);
  }

  private static void addBefore(
      Set<Long> ids, CompletedCheckpoint checkpoint, String source, long firstId) {
    List<SplitSequenceSource.Split> splits =
        elements(checkpoint, source, SplitSequenceSource.STATE_NAME);
    assertThat(splits).hasSize(1);
    LongStream.range(firstId, firstId + splits.get(0).nextIndex()).forEach(ids::add);
  }

  @SuppressWarnings("unchecked")
  private static <T> List<T> elements(CompletedCheckpoint checkpoint, String uid, String state) {
    OperatorSubtaskState subtask = checkpoint.operators().get(uid).subtasks().get(0);
    List<T> elements = new ArrayList<>();
    for (byte[] bytes : subtask.listStates().getOrDefault(state, List.of())) {
      elements.add((T) StateSerializer.java().deserialize(bytes));
    }
    return elements;
  }

  /** Keeps every id it saw on either input, in operator list state. */
  static final class SeenRecorder
      implements CoMapFunction<Long, String, Long>, CheckpointedFunction {
    static final String STATE_NAME = "seen";
    private transient ListState<Long> state;
    private transient List<Long> seen;

    @Override
    public Long map1(Long value) {
      seen.add(value);
      return value;
    }

    @Override
    public Long map2(String value) {
      long id = Long.parseLong(value);
      seen.add(id);
      return id;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
      state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(STATE_NAME));
      seen = new ArrayList<>(state.get());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      state.update(seen);
    }
  }
}

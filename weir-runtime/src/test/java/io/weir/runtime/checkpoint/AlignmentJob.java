package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.LongStream;

/**
 * The job of the barrier alignment tests and what its checkpoints are checked against: a fast
 * source (uid "fast") and a slow path (a source, uid "slow", feeding a map that sleeps per record,
 * in its own task) into one operator with uid "recorder" that keeps every id it saw in operator
 * list state named {@link #SEEN_STATE}. Each checkpoint's recorder snapshot is compared with the
 * positions the two sources stored in the same checkpoint.
 */
final class AlignmentJob {
  static final String SEEN_STATE = "seen";
  private static final long FAST_RECORDS = 8_000;
  private static final long SLOW_FIRST_ID = 1_000_000;
  private static final long SLOW_RECORDS = 1_200;

  private final Path checkpointRoot;
  private final String jobName;

  AlignmentJob(Path checkpointRoot, String jobName) {
    this.checkpointRoot = checkpointRoot;
    this.jobName = jobName;
  }

  /** An environment that checkpoints often, in the given mode, and keeps every checkpoint. */
  StreamEnvironment environment(CheckpointingMode mode) {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofMillis(50), mode);
    env.setCheckpointDirectory(checkpointRoot);
    env.config().retainedCheckpoints(1_000);
    return env;
  }

  DataStream<Long> fastSource(StreamEnvironment env) {
    return env.addSource(new SplitSequenceSource("fast", 0, FAST_RECORDS, 1, 8_000)).uid("fast");
  }

  /** The slow source behind a rebalance and a {@link SlowMap}, so it runs in a task of its own. */
  DataStream<Long> slowSource(StreamEnvironment env) {
    return env.addSource(new SplitSequenceSource("slow", SLOW_FIRST_ID, SLOW_RECORDS, 1, 1_000))
        .uid("slow")
        .rebalance()
        .map(new SlowMap())
        .uid("slow-map");
  }

  JobResult execute(StreamEnvironment env) throws Exception {
    return env.execute(jobName);
  }

  /** Aligned: each snapshot holds exactly the ids before each source's barrier, none after. */
  void assertEachSnapshotHoldsExactlyTheRecordsBeforeTheBarriers(JobResult result)
      throws Exception {
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

  /**
   * Unaligned: each snapshot, with the records it stored in flight, holds exactly the ids before
   * each source's barrier, each once (text ids of the second input read as numbers).
   */
  void assertEachSnapshotWithItsRecordsInFlightHoldsExactlyTheRecordsBeforeTheBarriers(
      JobResult result) throws Exception {
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    for (Path checkpoint : checkpoints()) {
      CompletedCheckpoint completed = CheckpointLoader.load(checkpoint);
      List<Long> held = new ArrayList<>(elements(completed, "recorder", SEEN_STATE));
      // In flight at the recorder (two channels) and at the slow map (one channel) before it.
      addInFlight(held, completed, "recorder", 2);
      addInFlight(held, completed, "slow-map", 1);
      // And overtaken by the sources' barriers in their tasks' outputs.
      addOvertaken(held, completed, "fast");
      addOvertaken(held, completed, "slow");
      Collections.sort(held);
      assertThat(held)
          .as("ids processed or in flight at %s", checkpoint.getFileName())
          .isEqualTo(new ArrayList<>(observe(checkpoint).beforeBarriers()));
    }
  }

  private static void addInFlight(
      List<Long> ids, CompletedCheckpoint checkpoint, String uid, int channels) throws Exception {
    OperatorSubtaskState subtask = checkpoint.operators().get(uid).subtasks().get(0);
    InFlightRecords records = new InFlightRecords(Arrays.asList(new StateSerializer<?>[channels]));
    for (Batch batch : records.decode(subtask.listStates(), null)) {
      for (int i = 0; i < batch.size(); i++) {
        Object value = batch.value(i);
        if (value instanceof Long id) {
          ids.add(id);
        } else if (value instanceof String text) {
          ids.add(Long.parseLong(text));
        }
      }
    }
  }

  private static void addOvertaken(List<Long> ids, CompletedCheckpoint checkpoint, String uid)
      throws Exception {
    OperatorSubtaskState subtask = checkpoint.operators().get(uid).subtasks().get(0);
    for (List<InFlightRecords.OutputRecords> edge :
        InFlightRecords.decodeOutput(
                subtask.listStates(), Collections.nCopies(4, null), oldSubtask -> true)
            .values()) {
      for (InFlightRecords.OutputRecords overtaken : edge) {
        for (int i = 0; i < overtaken.records().size(); i++) {
          Object value = overtaken.records().value(i);
          if (value instanceof Long id) {
            ids.add(id);
          } else if (value instanceof String text) {
            ids.add(Long.parseLong(text));
          }
        }
      }
    }
  }

  /** Without alignment a snapshot may also hold records after a barrier. */
  void assertCheckpointsHoldAtLeastTheRecordsBeforeTheBarriers(JobResult result) throws Exception {
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    for (Path checkpoint : checkpoints()) {
      Observed observed = observe(checkpoint);
      assertThat(observed.seen()).containsAll(observed.beforeBarriers());
    }
  }

  private List<Path> checkpoints() throws Exception {
    return CheckpointLayout.checkpointDirectoriesNewestFirst(checkpointRoot.resolve(jobName));
  }

  /** What the recorder saw at a checkpoint, and what came before the sources' barriers. */
  private record Observed(Set<Long> seen, Set<Long> beforeBarriers) {}

  private static Observed observe(Path checkpoint) throws Exception {
    CompletedCheckpoint completed = CheckpointLoader.load(checkpoint);
    Set<Long> seen = new TreeSet<>(elements(completed, "recorder", SEEN_STATE));
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

  /** Slows its channel down so barriers on it queue behind records. */
  static final class SlowMap implements MapFunction<Long, Long> {
    @Override
    public Long map(Long value) throws InterruptedException {
      Thread.sleep(1);
      return value;
    }
  }
}

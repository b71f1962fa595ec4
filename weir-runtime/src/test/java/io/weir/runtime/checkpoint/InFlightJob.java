package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.function.Consumer;

/**
 * The job of the unaligned checkpoint tests and what its checkpoints are checked against: a fast
 * source (uid "source") behind a rebalance into an operator that sleeps per record (uid "recorder")
 * and keeps every id it processed in operator list state named {@link #SEEN_STATE}, so its input
 * gate stays full. Each checkpoint's recorder snapshot and records in flight are compared with the
 * position the source stored in the same checkpoint.
 */
final class InFlightJob {
  static final String SEEN_STATE = "seen";
  static final long RECORDS = 3_000;

  private final Path checkpointRoot;
  private final String jobName;
  private final long records;

  InFlightJob(Path checkpointRoot, String jobName) {
    this(checkpointRoot, jobName, RECORDS);
  }

  InFlightJob(Path checkpointRoot, String jobName, long records) {
    this.checkpointRoot = checkpointRoot;
    this.jobName = jobName;
    this.records = records;
  }

  /** Runs the job with checkpoints every few tens of milliseconds, all of them kept. */
  JobResult run(Consumer<StreamEnvironment> checkpointOptions) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setCheckpointDirectory(checkpointRoot);
    env.config().retainedCheckpoints(1_000);
    checkpointOptions.accept(env);
    env.addSource(new SplitSequenceSource("source", 0, records, 1, 0))
        .uid("source")
        .rebalance()
        .map(new SlowRecorder())
        .uid("recorder")
        .addSink(new DiscardingSink<>())
        .uid("sink");
    return env.execute(jobName);
  }

  /**
   * What one checkpoint holds: the recorder's ids, its records in flight, the source's position.
   */
  record Observed(String checkpoint, List<Long> seen, List<Long> inFlight, long beforeBarrier) {
    /** Every id before the source's barrier was processed or is in flight, once. */
    void assertHoldsEachIdBeforeTheBarrierOnce() {
      List<Long> held = new ArrayList<>(seen);
      held.addAll(inFlight);
      Collections.sort(held);
      List<Long> expected = new ArrayList<>();
      for (long id = 0; id < beforeBarrier; id++) {
        expected.add(id);
      }
      assertThat(held).as("ids processed or in flight at %s", checkpoint).isEqualTo(expected);
    }
  }

  List<Observed> checkpoints() throws Exception {
    List<Observed> observed = new ArrayList<>();
    for (Path directory :
        CheckpointLayout.checkpointDirectoriesNewestFirst(checkpointRoot.resolve(jobName))) {
      observed.add(observe(directory));
    }
    return observed;
  }

  @SuppressWarnings("unchecked")
  private static Observed observe(Path directory) throws Exception {
    CompletedCheckpoint checkpoint = CheckpointLoader.load(directory);
    OperatorSubtaskState recorder = checkpoint.operators().get("recorder").subtasks().get(0);
    List<Long> seen = new ArrayList<>();
    for (byte[] bytes : recorder.listStates().getOrDefault(SEEN_STATE, List.of())) {
      seen.add((Long) StateSerializer.java().deserialize(bytes));
    }
    List<Long> inFlight = new ArrayList<>();
    InFlightRecords records = new InFlightRecords(Collections.singletonList(null));
    for (Batch batch : records.decode(recorder.listStates(), null)) {
      for (int i = 0; i < batch.size(); i++) {
        // The end of the input may be in flight too.
        if (batch.value(i) instanceof Long id) {
          inFlight.add(id);
        }
      }
    }
    OperatorSubtaskState source = checkpoint.operators().get("source").subtasks().get(0);
    // Records the source emitted before its barrier and that the barrier overtook in its output.
    for (List<InFlightRecords.OutputRecords> edge :
        InFlightRecords.decodeOutput(
                source.listStates(), Collections.singletonList(null), oldSubtask -> true)
            .values()) {
      for (InFlightRecords.OutputRecords overtaken : edge) {
        for (int i = 0; i < overtaken.records().size(); i++) {
          if (overtaken.records().value(i) instanceof Long id) {
            inFlight.add(id);
          }
        }
      }
    }
    SplitSequenceSource.Split split =
        (SplitSequenceSource.Split)
            StateSerializer.java()
                .deserialize(source.listStates().get(SplitSequenceSource.STATE_NAME).get(0));
    return new Observed(directory.getFileName().toString(), seen, inFlight, split.nextIndex());
  }

  /** Slow enough that its gate is always full; keeps every id it processed. */
  static final class SlowRecorder implements MapFunction<Long, Long>, CheckpointedFunction {
    private transient ListState<Long> state;
    private transient List<Long> seen;

    @Override
    public Long map(Long value) throws InterruptedException {
      Thread.sleep(1);
      seen.add(value);
      return value;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
      state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>(SEEN_STATE));
      seen = new ArrayList<>(state.get());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      state.update(seen);
    }
  }
}

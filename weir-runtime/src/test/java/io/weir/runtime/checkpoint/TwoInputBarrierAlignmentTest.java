package io.weir.runtime.checkpoint;

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
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
  @TempDir Path checkpointRoot;

  @Test
  void when_exactlyOnce_then_eachSnapshotHoldsExactlyTheRecordsBeforeBothInputsBarriers()
      throws Exception {
    // when
    AlignmentJob job = new AlignmentJob(checkpointRoot, "two-input-alignment");
    JobResult result = runJob(job, CheckpointingMode.EXACTLY_ONCE);

    // then
    job.assertEachSnapshotHoldsExactlyTheRecordsBeforeTheBarriers(result);
  }

  @Test
  void when_unaligned_then_eachSnapshotWithItsRecordsInFlightHoldsTheRecordsBeforeBothBarriers()
      throws Exception {
    // when
    AlignmentJob job = new AlignmentJob(checkpointRoot, "two-input-unaligned");
    StreamEnvironment env = job.environment(CheckpointingMode.EXACTLY_ONCE);
    env.config().enableUnalignedCheckpoints();
    JobResult result = runJob(job, env);

    // then
    job.assertEachSnapshotWithItsRecordsInFlightHoldsExactlyTheRecordsBeforeTheBarriers(result);
  }

  @Test
  void when_atLeastOnce_then_checkpointsCompleteAndHoldAtLeastTheRecordsBeforeTheBarriers()
      throws Exception {
    // when
    AlignmentJob job = new AlignmentJob(checkpointRoot, "two-input-alignment");
    JobResult result = runJob(job, CheckpointingMode.AT_LEAST_ONCE);

    // then
    job.assertCheckpointsHoldAtLeastTheRecordsBeforeTheBarriers(result);
  }

  /** The fast source as the first input of a co-map, the slow path, as text, as the second. */
  private static JobResult runJob(AlignmentJob job, CheckpointingMode mode) throws Exception {
    return runJob(job, job.environment(mode));
  }

  private static JobResult runJob(AlignmentJob job, StreamEnvironment env) throws Exception {
    DataStream<String> slow = job.slowSource(env).map(String::valueOf).uid("as-text");
    job.fastSource(env)
        .connect(slow)
        .map(new SeenRecorder())
        .uid("recorder")
        .addSink(new DiscardingSink<>())
        .uid("sink");
    return job.execute(env);
  }

  /** Keeps every id it saw on either input, in operator list state. */
  static final class SeenRecorder
      implements CoMapFunction<Long, String, Long>, CheckpointedFunction {
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
      state =
          context
              .getOperatorStateStore()
              .getListState(new ListStateDescriptor<>(AlignmentJob.SEEN_STATE));
      seen = new ArrayList<>(state.get());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      state.update(seen);
    }
  }
}

package io.weir.runtime.checkpoint;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
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
 * Barrier alignment at a task with a fast and a slow input channel, observed in the checkpoints: an
 * operator keeps every id it saw in operator list state, and each checkpoint is compared with the
 * positions the two sources stored in the same checkpoint. Aligned, the operator's snapshot holds
 * exactly the ids before each source's barrier, none after.
 */
@Timeout(60)
class BarrierAlignmentTest {
  @TempDir Path checkpointRoot;

  @Test
  void when_exactlyOnce_then_eachSnapshotHoldsExactlyTheRecordsBeforeItsBarriers()
      throws Exception {
    // when
    AlignmentJob job = new AlignmentJob(checkpointRoot, "alignment");
    JobResult result = runJob(job, CheckpointingMode.EXACTLY_ONCE);

    // then
    job.assertEachSnapshotHoldsExactlyTheRecordsBeforeTheBarriers(result);
  }

  @Test
  void when_atLeastOnce_then_checkpointsCompleteAndHoldAtLeastTheRecordsBeforeTheBarriers()
      throws Exception {
    // when
    AlignmentJob job = new AlignmentJob(checkpointRoot, "alignment");
    JobResult result = runJob(job, CheckpointingMode.AT_LEAST_ONCE);

    // then
    job.assertCheckpointsHoldAtLeastTheRecordsBeforeTheBarriers(result);
  }

  /** The fast source and the slow path, unioned, into one recording operator. */
  private static JobResult runJob(AlignmentJob job, CheckpointingMode mode) throws Exception {
    StreamEnvironment env = job.environment(mode);
    job.fastSource(env)
        .union(job.slowSource(env))
        .rebalance()
        .map(new SeenRecorder())
        .uid("recorder")
        .addSink(new DiscardingSink<>())
        .uid("sink");
    return job.execute(env);
  }

  /** Keeps every id it saw, in operator list state. */
  static final class SeenRecorder implements MapFunction<Long, Long>, CheckpointedFunction {
    private transient ListState<Long> state;
    private transient List<Long> seen;

    @Override
    public Long map(Long value) {
      seen.add(value);
      return value;
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

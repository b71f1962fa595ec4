package io.weir.runtime.sink.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.weir.api.datastream.StaleLeaseEpochException;
import io.weir.api.functions.LeaseEpoch;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.recovery.SinkRecoveryContext;
import io.weir.runtime.sink.twophase.SinkHarness;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runners of one job whose file locks both "succeeded" (a network file system that ignores
 * them): the older holds lease epoch 1 of the checkpoint directory, the newer epoch 2. Once the
 * newer one's recovery step recorded its lease in the sink's staging directory, the older one's
 * recovery and commits are refused there, and nothing the newer one staged or committed is undone.
 */
class FileSinkLeaseFenceTest {
  @TempDir Path output;
  @TempDir Path checkpoints;

  @Test
  void when_aNewerRunStaged_then_theStaleRunsRecoveryIsRefusedAndRenamesNothing() throws Exception {
    // given: the older run committed "a" with checkpoint 1; the newer one recovered from it and
    // pre-committed "b" with its checkpoint 2
    SinkHarness<String, FileSink<String>> older = runner(lease(1), null);
    older.process("a");
    Snapshot first = older.snapshot(1);
    older.notifyComplete(1);
    SinkHarness<String, FileSink<String>> newer = runner(lease(2), first);
    newer.process("b");
    newer.snapshot(2);
    List<String> stagedByTheNewerRun = stagedFileNames();
    assertThat(stagedByTheNewerRun).hasSize(1);
    // when: the older run recovers from checkpoint 1 again
    Throwable staleRecovery = catchThrowable(() -> recoveryStep(lease(1), first));
    // then: refused before it fenced or deleted anything; the newer run commits "b"
    assertFencedLine(staleRecovery, lease(1), lease(2));
    assertThat(stagedFileNames()).isEqualTo(stagedByTheNewerRun);
    newer.notifyComplete(2);
    assertThat(new OutputDirectory(output).lines()).containsExactly("a", "b");
  }

  @Test
  void when_aNewerRunRecovered_then_theStaleRunsCommitIsRefusedAndCommitsNothing()
      throws Exception {
    // given: the older run committed "a" with checkpoint 1 and pre-committed "b" with checkpoint 2
    SinkHarness<String, FileSink<String>> older = runner(lease(1), null);
    older.process("a");
    Snapshot first = older.snapshot(1);
    older.notifyComplete(1);
    older.process("b");
    older.snapshot(2);
    // when: the newer run recovers from checkpoint 1, and the older one is told 2 completed
    recoveryStep(lease(2), first);
    Throwable staleCommit = catchThrowable(() -> older.notifyComplete(2));
    // then: the commit is refused; the newer run writes "b" again, and it is there once
    assertFencedLine(staleCommit, lease(1), lease(2));
    assertThat(new OutputDirectory(output).lines()).containsExactly("a");
    SinkHarness<String, FileSink<String>> newer = harness(lease(2));
    newer.restore(first);
    newer.process("b");
    newer.snapshot(2);
    newer.notifyComplete(2);
    assertThat(new OutputDirectory(output).lines()).containsExactly("a", "b");
  }

  /**
   * A run holding {@code lease}: its recovery step from {@code restored} (null: none), a subtask.
   */
  private SinkHarness<String, FileSink<String>> runner(LeaseEpoch lease, Snapshot restored)
      throws Exception {
    recoveryStep(lease, restored);
    SinkHarness<String, FileSink<String>> harness = harness(lease);
    if (restored == null) {
      harness.start();
    } else {
      harness.restore(restored);
    }
    return harness;
  }

  private SinkHarness<String, FileSink<String>> harness(LeaseEpoch lease) {
    SinkHarness<String, FileSink<String>> harness =
        new SinkHarness<>(() -> FileSink.<String>forDirectory(output).build(), 0);
    harness.holdLease(lease);
    return harness;
  }

  /** What the runtime runs before a job's tasks start, on a sink of its own, for the run. */
  private void recoveryStep(LeaseEpoch lease, Snapshot snapshot) throws Exception {
    StateSerializer<byte[]> elements = StateSerializer.java();
    List<byte[]> states =
        snapshot == null
            ? List.of()
            : snapshot.operatorState().get(TwoPhaseCommitSinkFunction.STATE_NAME).stream()
                .map(elements::deserialize)
                .toList();
    FileSink<String> copy = FileSink.<String>forDirectory(output).build();
    copy.setRuntimeContext(
        new SinkRecoveryContext("test-job", "Sink: test", "sink-uid", 1, 128, lease));
    copy.recoverTransactions(states);
  }

  private LeaseEpoch lease(long epoch) {
    return new LeaseEpoch(checkpoints.resolve("test-job").toString(), epoch);
  }

  private List<String> stagedFileNames() {
    return OutputDirectory.stagedFileNames(output.resolve(".staging")).stream()
        .filter(name -> !name.startsWith(LeaseEpochFile.FILE_NAME))
        .toList();
  }

  private static void assertFencedLine(Throwable failure, LeaseEpoch older, LeaseEpoch newer) {
    Throwable fenced = failure;
    while (fenced != null && !(fenced instanceof StaleLeaseEpochException)) {
      fenced = fenced.getCause();
    }
    assertThat(fenced).as("a StaleLeaseEpochException in %s", String.valueOf(failure)).isNotNull();
    assertThat(fenced.getMessage())
        .isEqualTo(
            "Sink 'Sink: test' of job 'test-job' is fenced: this run holds "
                + older.describe()
                + ", and a newer run ("
                + newer.describe()
                + ") has recovered the sink since; stop this run");
  }
}

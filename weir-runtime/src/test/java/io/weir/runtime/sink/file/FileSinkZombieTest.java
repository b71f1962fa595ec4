package io.weir.runtime.sink.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.sink.twophase.SinkHarness;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A zombie: the task of an earlier attempt that still runs after the job restarted elsewhere (a
 * stopped task manager woken up). Once the new attempt's recovery step fenced it, whatever it does
 * neither commits nor deletes anything of the output or of the new attempt.
 */
class FileSinkZombieTest {
  @TempDir Path output;

  @Test
  void when_aZombieWakesAfterTheJobRestarted_then_itNeitherCommitsNorDeletesAnything()
      throws Exception {
    // given: attempt 1 committed "a", pre-committed "b" with checkpoint 2, then wrote "c"
    SinkHarness<String, FileSink<String>> first = harness();
    first.start();
    first.process("a");
    first.snapshot(1);
    first.notifyComplete(1);
    first.process("b");
    Snapshot second = first.snapshot(2);
    first.process("c");
    FileSink<String> zombie = first.sink();

    // when: the job restarts elsewhere from checkpoint 2 (the recovery step, then attempt 2, which
    // writes "d"), and the zombie wakes: it writes, snapshots, is notified and closed
    recoveryStep(second);
    SinkHarness<String, FileSink<String>> next = harness();
    next.restore(second);
    next.process("d");
    zombie.invoke("e", null);
    Throwable zombieSnapshot = catchThrowable(() -> zombie.snapshotState(checkpoint(3)));
    zombie.notifyCheckpointComplete(3);
    zombie.close();
    next.snapshot(3);
    next.notifyComplete(3);

    // then: the zombie could not pre-commit, and the output holds what the checkpoints hold, once
    assertThat(zombieSnapshot).isNotNull();
    assertThat(new OutputDirectory(output).lines()).containsExactly("a", "b", "d");
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  /** What the runtime runs before a restored job's tasks start, on a sink of its own. */
  private void recoveryStep(Snapshot snapshot) throws Exception {
    StateSerializer<byte[]> elements = StateSerializer.java();
    List<byte[]> states =
        snapshot.operatorState().get(TwoPhaseCommitSinkFunction.STATE_NAME).stream()
            .map(elements::deserialize)
            .toList();
    FileSink.<String>forDirectory(output).build().recoverTransactions(states);
  }

  private SinkHarness<String, FileSink<String>> harness() {
    return new SinkHarness<>(() -> FileSink.<String>forDirectory(output).build(), 0);
  }

  private static FunctionSnapshotContext checkpoint(long id) {
    return new FunctionSnapshotContext() {
      @Override
      public long checkpointId() {
        return id;
      }

      @Override
      public long checkpointTimestamp() {
        return id * 1000;
      }
    };
  }
}

package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.Directories;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Savepoints and checkpoint directories restore from wherever they were moved to. */
class RocksDbMovedSnapshotTest {
  private static final ValueStateDescriptor<Long> COUNT =
      new ValueStateDescriptor<>("count", StateSerializers.longs());

  @TempDir Path root;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  @Test
  void when_aSavepointDirectoryIsMoved_then_itRestoresFromItsNewPlace() throws Exception {
    // given: savepoint 2 of a job, after a checkpoint whose files it must not need
    Path jobDirectory = root.resolve("job");
    Path savepoint = root.resolve("savepoint-2");
    TestBackends backends =
        new TestBackends(jobDirectory, "counter", id -> id == 2 ? savepoint : null);
    Map<Integer, byte[]> keyGroups = writeAndCheckpoint(backends, 2);

    // when: the savepoint moves elsewhere and the job's directory is gone
    Path moved = root.resolve("elsewhere").resolve("kept-savepoint");
    Files.createDirectories(moved.getParent());
    Files.move(savepoint, moved);
    Directories.deleteRecursively(jobDirectory);
    try (KeyedStateBackend restored =
        backends.backend(0, 2, new OperatorSubtaskState(Map.of(), Map.of(), keyGroups, moved))) {
      // then
      assertEveryKey(restored);
    }
  }

  @Test
  void when_aJobsCheckpointDirectoryIsMoved_then_itsIncrementalCheckpointRestores()
      throws Exception {
    // given: checkpoint 2 of a job, sharing files with checkpoint 1
    Path jobDirectory = root.resolve("job");
    Map<Integer, byte[]> keyGroups =
        writeAndCheckpoint(new TestBackends(jobDirectory, "counter"), 2);

    // when: the whole job directory (checkpoints and shared files) moves
    Path movedJob = root.resolve("archive").resolve("job");
    Files.createDirectories(movedJob.getParent());
    Files.move(jobDirectory, movedJob);
    TestBackends moved = new TestBackends(movedJob, "counter");
    try (KeyedStateBackend restored = moved.backend(0, 2, moved.restored(keyGroups, 2))) {
      // then
      assertEveryKey(restored);
    }
  }

  /** Subtask 0 of 2 counts its keys of 0..999, checkpoints 1 and completes it, then takes 2. */
  private static Map<Integer, byte[]> writeAndCheckpoint(TestBackends backends, long last)
      throws Exception {
    try (KeyedStateBackend backend = backends.backend(0, 2, OperatorSubtaskState.EMPTY)) {
      for (long key = 0; key < 1_000; key++) {
        if (backend.range().contains(KeyGroups.keyGroupOf(key, TestBackends.MAX_PARALLELISM))) {
          backend.setCurrentKey(key);
          backend.getState(COUNT).update(key);
        }
      }
      TestBackends.checkpoint(backend, 1);
      backend.notifyCheckpointComplete(1);
      return TestBackends.checkpoint(backend, last);
    }
  }

  private static void assertEveryKey(KeyedStateBackend backend) {
    ValueState<Long> count = backend.getState(COUNT);
    int checked = 0;
    for (long key = 0; key < 1_000; key++) {
      if (backend.range().contains(KeyGroups.keyGroupOf(key, TestBackends.MAX_PARALLELISM))) {
        backend.setCurrentKey(key);
        assertThat(count.value()).isEqualTo(key);
        checked++;
      }
    }
    assertThat(checked).isGreaterThan(100);
  }
}

package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.Directories;
import io.weir.runtime.checkpoint.storage.StateFileListings;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedBackendContext;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedTable;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.StateFileListing.StateFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** One backend driven through writes, checkpoints and restores, as a keyed operator drives it. */
class RocksDbKeyedStateBackendTest {
  private static final int MAX_PARALLELISM = 128;
  private static final ValueStateDescriptor<Long> COUNT =
      new ValueStateDescriptor<>("count", StateSerializers.longs());
  private static final ListStateDescriptor<String> SEEN = new ListStateDescriptor<>("seen");
  private static final MapStateDescriptor<String, Long> BY_NAME = new MapStateDescriptor<>("names");
  private static final ReducingStateDescriptor<Long> SUM =
      new ReducingStateDescriptor<>("sum", Long::sum);

  @TempDir Path jobDirectory;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  @Test
  void when_everyKindOfStateIsCheckpointedAndRestored_then_eachKeyHasItsValues() throws Exception {
    // given: value, list, map, reducing state and an operator table for 500 keys
    Map<Integer, byte[]> snapshot;
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      for (long key = 0; key < 500; key++) {
        write(backend, key);
      }
      snapshot = checkpoint(backend, 1);
    }

    // when
    try (KeyedStateBackend restored = backend(0, 1, restoredState(snapshot))) {
      // then
      for (long key = 0; key < 500; key++) {
        restored.setCurrentKey(key);
        assertThat(restored.getState(COUNT).value()).isEqualTo(key);
        assertThat(restored.getListState(SEEN).get()).containsExactly("a" + key, "b" + key);
        assertThat(restored.getMapState(BY_NAME).entries()).isEqualTo(Map.of("k" + key, key));
        assertThat(restored.getReducingState(SUM).get()).isEqualTo(3 * key);
        assertThat(restored.table("timers").get()).isEqualTo(new TreeSet<>(List.of(key)));
      }
      Map<Object, Object> timers = new HashMap<>();
      restored.table("timers").forEach(timers::put);
      assertThat(timers).hasSize(500);
    }
  }

  @Test
  void when_rescaledFromTwoToThreeToOne_then_everyKeyIsOnceWhereItBelongs() throws Exception {
    // given: two subtasks that checkpointed 3,000 keys between them
    Map<Integer, byte[]> checkpoint = new HashMap<>();
    for (int subtask = 0; subtask < 2; subtask++) {
      try (KeyedStateBackend backend = backend(subtask, 2, OperatorSubtaskState.EMPTY)) {
        for (long key = 0; key < 3_000; key++) {
          if (KeyGroups.subtaskOfKey(key, MAX_PARALLELISM, 2) == subtask) {
            backend.setCurrentKey(key);
            backend.getState(COUNT).update(key * 7);
          }
        }
        checkpoint.putAll(checkpoint(backend, 1));
      }
    }

    // when: restored by three subtasks, which checkpoint again, restored by one
    Map<Integer, byte[]> second = new HashMap<>();
    for (int subtask = 0; subtask < 3; subtask++) {
      try (KeyedStateBackend backend = backend(subtask, 3, restoredState(checkpoint))) {
        assertThat(countEntries(backend)).isEqualTo(keysOf(subtask, 3));
        second.putAll(checkpoint(backend, 2));
      }
    }
    try (KeyedStateBackend one = backend(0, 1, restoredState(second))) {
      // then
      for (long key = 0; key < 3_000; key++) {
        one.setCurrentKey(key);
        assertThat(one.getState(COUNT).value()).isEqualTo(key * 7);
      }
      assertThat(countEntries(one)).isEqualTo(3_000);
    }
  }

  @Test
  void when_fewKeysChangeBetweenCheckpoints_then_theSecondWritesOnlyTheirFiles() throws Exception {
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // given: a first checkpoint of 50,000 keys
      for (long key = 0; key < 50_000; key++) {
        backend.setCurrentKey(key);
        backend.getState(COUNT).update(key);
      }
      checkpoint(backend, 1);
      backend.notifyCheckpointComplete(1);

      // when: 1 % of the keys change
      for (long key = 0; key < 500; key++) {
        backend.setCurrentKey(key);
        backend.getState(COUNT).update(-key);
      }
      checkpoint(backend, 2);

      // then
      List<StateFile> first = StateFileListings.read(checkpointDirectory(1));
      List<StateFile> second = StateFileListings.read(checkpointDirectory(2));
      long full = first.stream().mapToLong(StateFile::length).sum();
      long written =
          second.stream()
              .filter(StateFile::writtenByThisCheckpoint)
              .mapToLong(StateFile::length)
              .sum();
      assertThat(second).anyMatch(file -> !file.writtenByThisCheckpoint());
      assertThat(written).isLessThan(full / 5);
    }
  }

  @Test
  void when_restoredWithTheSameKeyGroups_then_theNextCheckpointSharesTheRestoredFiles()
      throws Exception {
    // given
    Map<Integer, byte[]> snapshot;
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      for (long key = 0; key < 20_000; key++) {
        write(backend, key);
      }
      snapshot = checkpoint(backend, 1);
    }

    // when: the restored backend changes one key and checkpoints
    try (KeyedStateBackend restored = backend(0, 1, restoredState(snapshot))) {
      restored.setCurrentKey(5L);
      restored.getState(COUNT).update(-5L);
      checkpoint(restored, 2);
    }

    // then
    List<StateFile> files = StateFileListings.read(checkpointDirectory(2));
    long shared =
        files.stream().filter(f -> !f.writtenByThisCheckpoint()).mapToLong(StateFile::length).sum();
    long full =
        StateFileListings.read(checkpointDirectory(1)).stream().mapToLong(StateFile::length).sum();
    assertThat(shared).isGreaterThan(full / 2);
  }

  @Test
  void when_aSavepointFollowsACheckpoint_then_itHoldsACopyOfEveryFile(@TempDir Path savepoint)
      throws Exception {
    // given: a completed checkpoint whose files a next checkpoint would share
    Map<Integer, byte[]> snapshot;
    try (KeyedStateBackend backend =
        backend(0, 1, OperatorSubtaskState.EMPTY, id -> id == 2 ? savepoint : null)) {
      for (long key = 0; key < 1_000; key++) {
        write(backend, key);
      }
      checkpoint(backend, 1);
      backend.notifyCheckpointComplete(1);

      // when: checkpoint 2 is a savepoint
      snapshot = checkpoint(backend, 2);
    }

    // then: it wrote every file it needs into its own directory, and restores without the others
    assertThat(StateFileListings.read(savepoint))
        .isNotEmpty()
        .allMatch(StateFile::writtenByThisCheckpoint)
        .allMatch(file -> savepoint.resolve(file.relativePath()).normalize().startsWith(savepoint));
    Directories.deleteRecursively(CheckpointLayout.sharedDirectory(jobDirectory));
    try (KeyedStateBackend restored = backend(0, 1, restoredState(snapshot, savepoint))) {
      restored.setCurrentKey(999L);
      assertThat(restored.getState(COUNT).value()).isEqualTo(999L);
    }
  }

  @Test
  void when_aStoredFileIsMissing_then_theRestoreNamesIt() throws Exception {
    // given
    Map<Integer, byte[]> snapshot;
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      write(backend, 1);
      snapshot = checkpoint(backend, 1);
    }
    Path sst;
    try (Stream<Path> files = Files.list(CheckpointLayout.sharedDirectory(jobDirectory))) {
      sst = files.filter(f -> f.toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    Files.delete(sst);

    // when / then
    assertThatThrownBy(() -> backend(0, 1, restoredState(snapshot)))
        .hasMessageContaining(sst.toString())
        .hasMessageContaining("missing");
  }

  @Test
  void when_aStoredFileIsCorrupt_then_theRestoreFailsForGoodNamingTheState() throws Exception {
    // given: one byte flipped in the middle of the largest stored SST file
    Map<Integer, byte[]> snapshot;
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      for (long key = 0; key < 20_000; key++) {
        write(backend, key);
      }
      snapshot = checkpoint(backend, 1);
    }
    Path sst;
    try (Stream<Path> files = Files.list(CheckpointLayout.sharedDirectory(jobDirectory))) {
      sst =
          files
              .filter(f -> f.toString().endsWith(".sst"))
              .max(java.util.Comparator.comparingLong(f -> f.toFile().length()))
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(sst);
    bytes[bytes.length / 2] ^= 0x5a;
    Files.write(sst, bytes);

    // when / then
    assertThatThrownBy(() -> backend(0, 1, restoredState(snapshot)))
        .isInstanceOf(io.weir.api.datastream.SuppressRestartsException.class)
        .hasMessageContaining(CheckpointLayout.sharedDirectory(jobDirectory).toString())
        .hasMessageContaining("orrupt");
  }

  @Test
  void when_aProcessEndedWithoutCleaningUp_then_theNextBackendDeletesItsDirectory()
      throws Exception {
    // given: the directory of a process that no longer runs
    Path leftover = localRoot.directory().resolve("process-" + Integer.MAX_VALUE).resolve("db");
    Files.createDirectories(leftover);

    // when
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // then
      assertThat(leftover.getParent()).doesNotExist();
      assertThat(localRoot.directory().resolve("process-" + ProcessHandle.current().pid()))
          .isDirectory();
    }
  }

  private static void write(KeyedStateBackend backend, long key) throws Exception {
    backend.setCurrentKey(key);
    backend.getState(COUNT).update(key);
    ListState<String> seen = backend.getListState(SEEN);
    seen.add("a" + key);
    seen.add("b" + key);
    MapState<String, Long> names = backend.getMapState(BY_NAME);
    names.put("k" + key, key);
    ReducingState<Long> sum = backend.getReducingState(SUM);
    sum.add(key);
    sum.add(2 * key);
    KeyedTable timers = backend.table("timers");
    timers.put(new TreeSet<>(List.of(key)));
  }

  private long countEntries(KeyedStateBackend backend) {
    long[] count = {0};
    ValueState<Long> unused = backend.getState(COUNT);
    ((RocksDbKeyedStateBackend) backend).countEntries("count", () -> count[0]++);
    return count[0];
  }

  private static long keysOf(int subtask, int parallelism) {
    long count = 0;
    for (long key = 0; key < 3_000; key++) {
      if (KeyGroups.subtaskOfKey(key, MAX_PARALLELISM, parallelism) == subtask) {
        count++;
      }
    }
    return count;
  }

  private Map<Integer, byte[]> checkpoint(KeyedStateBackend backend, long checkpointId)
      throws Exception {
    Map<Integer, byte[]> keyGroups = backend.snapshot(checkpointId);
    backend.materializeSnapshot(checkpointId);
    return keyGroups;
  }

  private Path checkpointDirectory(long checkpointId) {
    return jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
  }

  /** As restored from a checkpoint of the job directory (they all share its files). */
  private OperatorSubtaskState restoredState(Map<Integer, byte[]> keyGroups) {
    return restoredState(keyGroups, checkpointDirectory(1));
  }

  private static OperatorSubtaskState restoredState(Map<Integer, byte[]> keyGroups, Path location) {
    return new OperatorSubtaskState(Map.of(), Map.of(), keyGroups, location);
  }

  private KeyedStateBackend backend(int subtask, int parallelism, OperatorSubtaskState restored)
      throws Exception {
    return backend(subtask, parallelism, restored, id -> null);
  }

  /** {@code savepoints} gives the savepoint directory of a checkpoint id, null for a checkpoint. */
  private KeyedStateBackend backend(
      int subtask,
      int parallelism,
      OperatorSubtaskState restored,
      java.util.function.LongFunction<Path> savepoints)
      throws Exception {
    KeyGroupRange range = KeyGroups.rangeOf(subtask, MAX_PARALLELISM, parallelism);
    return new RocksDbStateBackendFactory()
        .create(
            new KeyedBackendContext(
                "job",
                "counter",
                subtask,
                range,
                MAX_PARALLELISM,
                restored,
                id ->
                    Optional.of(
                        savepoints.apply(id) != null
                            ? new SnapshotFiles(
                                CheckpointLayout.savepointFilesDirectory(savepoints.apply(id)),
                                false,
                                savepoints.apply(id))
                            : new SnapshotFiles(
                                CheckpointLayout.sharedDirectory(jobDirectory),
                                true,
                                checkpointDirectory(id)))));
  }
}

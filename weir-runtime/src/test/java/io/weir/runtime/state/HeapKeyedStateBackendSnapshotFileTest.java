package io.weir.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.runtime.checkpoint.storage.StateFileListings;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.StateFileListing.StateFile;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Heap snapshots written into the checkpoint's files instead of into memory. */
class HeapKeyedStateBackendSnapshotFileTest {
  private static final int MAX_PARALLELISM = 128;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM - 1);
  private static final String BIDS = "bids";
  private static final String VALUE_PADDING = "x".repeat(200);

  @TempDir Path job;

  private Path checkpointDirectory(long checkpointId) {
    return job.resolve("chk-" + checkpointId);
  }

  private KeyedStateBackend backend(KeyGroupRange range, OperatorSubtaskState restored) {
    return new HeapKeyedStateBackendFactory()
        .create(
            new KeyedBackendContext(
                "job",
                "bids-operator",
                0,
                range,
                MAX_PARALLELISM,
                restored,
                id ->
                    Optional.of(
                        new SnapshotFiles(job.resolve("shared"), true, checkpointDirectory(id)))));
  }

  private static void put(KeyedStateBackend backend, long key, String value) {
    backend.setCurrentKey(key);
    backend.table(BIDS).put(value);
  }

  private static Map<Object, Object> entries(KeyedStateBackend backend) {
    Map<Object, Object> entries = new HashMap<>();
    backend.table(BIDS).forEach(entries::put);
    return entries;
  }

  private OperatorSubtaskState checkpoint(Map<Integer, byte[]> keyGroups, long checkpointId) {
    return new OperatorSubtaskState(Map.of(), Map.of(), keyGroups)
        .restoredFrom(checkpointDirectory(checkpointId));
  }

  private static long allocatedByThisThread() {
    return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
        .getCurrentThreadAllocatedBytes();
  }

  private long keyGroupFileBytes(long checkpointId) throws IOException {
    try (Stream<Path> files = Files.list(checkpointDirectory(checkpointId))) {
      return files
          .filter(file -> file.toString().endsWith(".keygroups"))
          .mapToLong(file -> file.toFile().length())
          .sum();
    }
  }

  @Test
  void when_largeStateIsSnapshotToAFile_then_theSnapshotAllocatesFarLessThanTheState()
      throws Exception {
    // given: a state of about 40 MB when written
    KeyedStateBackend backend = backend(ALL, OperatorSubtaskState.EMPTY);
    for (long key = 0; key < 200_000; key++) {
      put(backend, key, VALUE_PADDING + key);
    }
    KeyedStateBackend inMemory =
        new HeapKeyedStateBackend(
            "bids-operator", ALL, MAX_PARALLELISM, OperatorSubtaskState.EMPTY);
    entries(backend).forEach((key, value) -> put(inMemory, (Long) key, (String) value));
    backend.snapshot(1); // the first snapshot loads classes; not what is measured
    backend.materializeSnapshot(1);
    inMemory.snapshot(1);

    // when: both parts of the snapshot to a file, here on one thread
    long before = allocatedByThisThread();
    backend.snapshot(2);
    backend.materializeSnapshot(2);
    long toFile = allocatedByThisThread() - before;
    before = allocatedByThisThread();
    Map<Integer, byte[]> bytes = inMemory.snapshot(2);
    long toMemory = allocatedByThisThread() - before;

    // then: the file holds the state; writing it took a buffer, writing bytes took a copy
    long stateBytes = keyGroupFileBytes(2);
    assertThat(stateBytes)
        .isEqualTo(bytes.values().stream().mapToLong(keyGroup -> keyGroup.length).sum());
    assertThat(stateBytes).isGreaterThan(40_000_000L);
    assertThat(toMemory).isGreaterThan(stateBytes);
    assertThat(toFile).isLessThan(stateBytes / 20);
  }

  @Test
  void when_stateChangesAfterTheBarrier_then_theCheckpointHoldsTheStateAtTheBarrier()
      throws Exception {
    // given: the state at the barrier of checkpoint 1
    KeyedStateBackend backend = backend(ALL, OperatorSubtaskState.EMPTY);
    Map<Object, Object> atBarrier = new HashMap<>();
    for (long key = 0; key < 1_000; key++) {
      put(backend, key, "bid-" + key);
      atBarrier.put(key, "bid-" + key);
    }
    backend.snapshot(1);

    // when: records change, add and remove keys before the snapshot thread finishes
    for (long key = 0; key < 500; key++) {
      put(backend, key, "later-" + key);
    }
    put(backend, 5_000, "new key");
    backend.setCurrentKey(999L);
    backend.table(BIDS).put(null);
    Map<Integer, byte[]> keyGroups = backend.materializeSnapshot(1);

    // then
    assertThat(entries(backend(ALL, checkpoint(keyGroups, 1)))).isEqualTo(atBarrier);
  }

  @Test
  void when_restoredWithAnotherParallelism_then_eachSubtaskTakesItsWholeKeyGroups()
      throws Exception {
    // given
    KeyedStateBackend backend = backend(ALL, OperatorSubtaskState.EMPTY);
    for (long key = 0; key < 1_000; key++) {
      put(backend, key, "bid-" + key);
    }
    backend.snapshot(1);
    Map<Integer, byte[]> keyGroups = backend.materializeSnapshot(1);

    // when: three subtasks restore it
    Map<Object, Object> restored = new HashMap<>();
    int restoredKeys = 0;
    for (int subtask = 0; subtask < 3; subtask++) {
      KeyGroupRange range = KeyGroups.rangeOf(subtask, MAX_PARALLELISM, 3);
      Map<Object, Object> entries = entries(backend(range, checkpoint(keyGroups, 1)));
      entries.keySet().forEach(key -> assertThat(range.contains(keyGroupOf(key))).isTrue());
      restoredKeys += entries.size();
      restored.putAll(entries);
    }

    // then: each key once, in the subtask of its key group
    assertThat(restoredKeys).isEqualTo(1_000);
    assertThat(restored).isEqualTo(entries(backend));
  }

  @Test
  void when_theFileIsMaterialized_then_theCheckpointListsItWithItsLength() throws Exception {
    // given
    KeyedStateBackend backend = backend(ALL, OperatorSubtaskState.EMPTY);
    for (long key = 0; key < 1_000; key++) {
      put(backend, key, "bid-" + key);
    }
    backend.snapshot(1);

    // when
    backend.materializeSnapshot(1);

    // then: loading the checkpoint verifies the file by its listing
    List<StateFile> listed = StateFileListings.read(checkpointDirectory(1));
    assertThat(listed).hasSize(1);
    Path file = checkpointDirectory(1).resolve(listed.get(0).relativePath());
    assertThat(listed.get(0).length()).isEqualTo(Files.size(file)).isPositive();
  }

  @Test
  void when_theFileIsNotMaterialized_then_itIsNotInPlace() throws Exception {
    // given
    KeyedStateBackend backend = backend(ALL, OperatorSubtaskState.EMPTY);
    put(backend, 1, "bid");

    // when: the process dies between the snapshot and its asynchronous part
    Map<Integer, byte[]> keyGroups = backend.snapshot(1);

    // then: the synchronous part names no key group and wrote no file a checkpoint could name
    assertThat(keyGroups).isEmpty();
    assertThat(checkpointDirectory(1)).doesNotExist();
    assertThat(job.resolve("shared")).doesNotExist();
  }

  @Test
  void when_aKeyGroupsBytesAreDamaged_then_theRestoreStopsTheJobNamingIt() throws Exception {
    // given
    KeyedStateBackend backend = backend(ALL, OperatorSubtaskState.EMPTY);
    put(backend, 1, "bid");
    backend.snapshot(1);
    Map<Integer, byte[]> keyGroups = backend.materializeSnapshot(1);
    Path file;
    try (Stream<Path> files = Files.list(checkpointDirectory(1))) {
      file = files.filter(f -> f.toString().endsWith(".keygroups")).findFirst().orElseThrow();
    }

    // when: one byte flips
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.write(ByteBuffer.wrap(new byte[] {42}), 12);
    }

    // then: the job stops rather than restart into the same failure
    int keyGroup = keyGroupOf(1L);
    assertThatThrownBy(() -> backend(ALL, checkpoint(keyGroups, 1)))
        .isInstanceOf(SuppressRestartsException.class)
        .hasMessageContaining("Checksum mismatch in key group " + keyGroup);

    // and when it is cut short
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
      channel.truncate(10);
    }
    assertThatThrownBy(() -> backend(ALL, checkpoint(keyGroups, 1)))
        .hasMessageContaining("ends before the end of key group " + keyGroup);
  }

  @Test
  void when_theFileCannotBeWritten_then_theCheckpointIsDeclinedAndTheNextOneHoldsTheState()
      throws Exception {
    // given: where checkpoint 1's directory should be, a file (writing is refused as on a full
    // disk, which a test running as root cannot make with permissions)
    KeyedStateBackend backend = backend(ALL, OperatorSubtaskState.EMPTY);
    put(backend, 1, "bid");
    Files.writeString(checkpointDirectory(1), "not a directory");

    // when / then: the asynchronous part fails, which declines the checkpoint, not the task
    assertThat(backend.snapshot(1)).isEmpty();
    assertThatThrownBy(() -> backend.materializeSnapshot(1))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("Cannot write the keyed state of checkpoint 1");
    assertThat(checkpointDirectory(1)).isRegularFile();

    // and the next checkpoint holds the state as it was
    put(backend, 2, "bid-2");
    backend.snapshot(2);
    Map<Integer, byte[]> keyGroups = backend.materializeSnapshot(2);
    assertThat(entries(backend(ALL, checkpoint(keyGroups, 2))))
        .isEqualTo(Map.of(1L, "bid", 2L, "bid-2"));
  }

  private static int keyGroupOf(Object key) {
    return KeyGroups.keyGroupOf(key, MAX_PARALLELISM);
  }
}

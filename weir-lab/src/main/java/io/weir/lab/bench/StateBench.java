package io.weir.lab.bench;

import io.weir.api.state.StateBackend;
import io.weir.api.state.StateBackends;
import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.FileCheckpointStorage;
import io.weir.runtime.checkpoint.storage.StateFileListings;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedStateBackends;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongConsumer;

/**
 * Keyed state on its own, without a job around it: the records per second of a read-modify-write of
 * a counter per key on the heap and in RocksDB, then, in RocksDB, a state of the given size
 * checkpointed whole and then after each of a few intervals in which a small share of the keys
 * changed. Checkpoints go to a job checkpoint directory as a job's would, so their bytes are the
 * files they list as written by them.
 */
public final class StateBench {
  private static final int MAX_PARALLELISM = 128;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM - 1);
  private static final int VALUE_BYTES = 1_000;
  private static final int INTERVALS = 5;

  public record Settings(
      long records, long keys, long stateBytes, double changedShare, Path directory) {}

  record Throughput(String backend, long records, double recordsPerSecond) {}

  record CheckpointFigures(long bytes, long millis) {}

  public record Result(
      List<Throughput> throughput,
      long stateKeys,
      CheckpointFigures full,
      List<CheckpointFigures> incremental) {}

  private final Settings settings;
  private final LongConsumer progress;

  public StateBench(Settings settings, LongConsumer progress) {
    this.settings = settings;
    this.progress = progress;
  }

  public Result run() throws Exception {
    List<Throughput> throughput = new ArrayList<>();
    for (StateBackend backend : List.of(StateBackends.heap(), StateBackends.rocksdb())) {
      throughput(backend); // warm-up: compiled code and a loaded native library for both
      throughput.add(throughput(backend));
    }
    long keys = Math.max(1, settings.stateBytes() / VALUE_BYTES);
    FileCheckpointStorage storage =
        FileCheckpointStorage.forJob(settings.directory(), "state-bench", INTERVALS + 1);
    KeyedStateBackends backends =
        KeyedStateBackends.forJob(StateBackends.rocksdb(), "state-bench", storage::snapshotFiles);
    try (KeyedStateBackend backend =
        backends.create("state", 0, ALL, MAX_PARALLELISM, OperatorSubtaskState.EMPTY)) {
      ValueState<byte[]> values =
          backend.getState(new ValueStateDescriptor<>("values", StateSerializers.tagged()));
      SplittableRandom random = new SplittableRandom(17);
      for (long key = 0; key < keys; key++) {
        write(backend, values, key, random);
        if (key % 100_000 == 0) {
          progress.accept(key);
        }
      }
      CheckpointFigures full = checkpoint(backend, storage, 1);
      List<CheckpointFigures> incremental = new ArrayList<>();
      long changed = Math.max(1, Math.round(keys * settings.changedShare()));
      for (int interval = 1; interval <= INTERVALS; interval++) {
        for (long i = 0; i < changed; i++) {
          write(backend, values, random.nextLong(keys), random);
        }
        incremental.add(checkpoint(backend, storage, interval + 1));
      }
      return new Result(throughput, keys, full, incremental);
    }
  }

  private static void write(
      KeyedStateBackend backend, ValueState<byte[]> values, long key, SplittableRandom random) {
    byte[] value = new byte[VALUE_BYTES];
    for (int i = 0; i < VALUE_BYTES; i += 8) {
      long bits = random.nextLong();
      for (int b = 0; b < 8; b++) {
        value[i + b] = (byte) (bits >>> (8 * b));
      }
    }
    backend.setCurrentKey(key);
    values.update(value);
  }

  /** Both parts of a checkpoint as a task runs them, timed together, and what it wrote. */
  private static CheckpointFigures checkpoint(
      KeyedStateBackend backend, FileCheckpointStorage storage, long checkpointId)
      throws Exception {
    long start = System.nanoTime();
    backend.snapshot(checkpointId);
    backend.materializeSnapshot(checkpointId);
    long millis = (System.nanoTime() - start) / 1_000_000;
    backend.notifyCheckpointComplete(checkpointId);
    StateFileListings.Summary files =
        StateFileListings.summarize(storage.checkpointDirectory(checkpointId));
    return new CheckpointFigures(files.newBytes(), millis);
  }

  /** Read, add one, write: the per-record work of a keyed counter. */
  private Throughput throughput(StateBackend choice) throws Exception {
    KeyedStateBackends backends =
        KeyedStateBackends.forJob(
            choice, "state-bench-throughput", id -> java.util.Optional.empty());
    try (KeyedStateBackend backend =
        backends.create("counter", 0, ALL, MAX_PARALLELISM, OperatorSubtaskState.EMPTY)) {
      ValueState<Long> counts =
          backend.getState(new ValueStateDescriptor<>("count", StateSerializers.longs()));
      long start = System.nanoTime();
      for (long record = 0; record < settings.records(); record++) {
        backend.setCurrentKey(record % settings.keys());
        Long count = counts.value();
        counts.update(count == null ? 1 : count + 1);
      }
      double seconds = (System.nanoTime() - start) / 1e9;
      return new Throughput(choice.name(), settings.records(), settings.records() / seconds);
    }
  }
}

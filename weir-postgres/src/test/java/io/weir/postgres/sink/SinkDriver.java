package io.weir.postgres.sink;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.JobConfig;
import io.weir.api.functions.LeaseEpoch;
import io.weir.api.functions.RichFunction;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.state.KeyedStateStore;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.OperatorStateStore;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.failpoint.FailpointCommitObserver;
import io.weir.runtime.failpoint.FailpointConfiguration;
import io.weir.runtime.failpoint.Failpoints;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;

/**
 * Drives one subtask of the exactly-once sink as a task would: initialize (fresh or restored from a
 * state file), records, snapshot (the sink's operator state written to the file by atomic rename,
 * as a completed checkpoint), notification. Test code; one thread.
 */
final class SinkDriver {
  private static final SinkFunction.Context NO_CONTEXT =
      new SinkFunction.Context() {
        @Override
        public long timestamp() {
          return Long.MIN_VALUE;
        }

        @Override
        public long currentWatermark() {
          return Long.MIN_VALUE;
        }

        @Override
        public long currentProcessingTime() {
          return System.currentTimeMillis();
        }
      };

  private final SinkFunction<Long> sink;
  private final MemoryListState state = new MemoryListState();
  private final Failpoints failpoints;

  private SinkDriver(
      SinkFunction<Long> sink, String jobName, int subtaskIndex, LeaseEpoch leaseEpoch) {
    this.sink = sink;
    // As a runner does: the process's failpoints (-Dweir.failpoints) become this one job's.
    JobConfig config = new JobConfig();
    FailpointConfiguration.applyProcessConfiguration(config);
    this.failpoints = Failpoints.of(config.failpoints());
    ((RichFunction) sink)
        .setRuntimeContext(new Subtask(failpoints, jobName, subtaskIndex, leaseEpoch));
  }

  /** The failpoints of the job this driver plays, armed from the process's configuration. */
  Failpoints failpoints() {
    return failpoints;
  }

  /** A sink inserting each record as an id into {@code table}, started fresh or from the file. */
  static SinkDriver start(String jdbcUrl, String table, Path stateFile) throws Exception {
    return start(exactlyOnceInserts(jdbcUrl, table), stateFile);
  }

  /** Any sink of this module, started fresh or from the file. */
  static SinkDriver start(SinkFunction<Long> sinkFunction, Path stateFile) throws Exception {
    return start("sink-test", sinkFunction, stateFile);
  }

  /** As above, as a subtask of the job {@code jobName}. */
  static SinkDriver start(String jobName, SinkFunction<Long> sinkFunction, Path stateFile)
      throws Exception {
    return start(jobName, 0, sinkFunction, stateFile);
  }

  /** As above, as subtask {@code subtaskIndex} of the job {@code jobName}. */
  static SinkDriver start(
      String jobName, int subtaskIndex, SinkFunction<Long> sinkFunction, Path stateFile)
      throws Exception {
    return start(jobName, subtaskIndex, sinkFunction, stateFile, LeaseEpoch.NONE);
  }

  /** As above, in a run that holds {@code leaseEpoch}. */
  static SinkDriver start(
      String jobName,
      int subtaskIndex,
      SinkFunction<Long> sinkFunction,
      Path stateFile,
      LeaseEpoch leaseEpoch)
      throws Exception {
    SinkDriver driver = new SinkDriver(sinkFunction, jobName, subtaskIndex, leaseEpoch);
    boolean restored = Files.exists(stateFile);
    if (restored) {
      driver.state.update(read(stateFile));
    }
    ((CheckpointedFunction) driver.sink).initializeState(driver.new Initialization(restored));
    return driver;
  }

  /**
   * The job's recovery step, as a run holding {@code leaseEpoch} takes it: on {@code sink}, a copy
   * of the job's sink, with the state of checkpoint {@code stateFile} (or none: a fresh start).
   */
  static List<TransactionOutcome> recover(
      String jobName, SinkFunction<Long> sink, Path stateFile, LeaseEpoch leaseEpoch)
      throws Exception {
    ((RichFunction) sink).setRuntimeContext(new Subtask(Failpoints.none(), jobName, 0, leaseEpoch));
    return ((RecoverableSink) sink)
        .recoverTransactions(Files.exists(stateFile) ? read(stateFile) : List.of());
  }

  static SinkFunction<Long> exactlyOnceInserts(String jdbcUrl, String table) {
    return JdbcSink.<Long>exactlyOnce(jdbcUrl)
        .statement(
            "INSERT INTO " + table + " (id) VALUES (?)",
            (statement, id) -> statement.setLong(1, id))
        .batchSize(7)
        .sinkId(table)
        .build();
  }

  void write(long fromInclusive, long toExclusive) throws Exception {
    for (long id = fromInclusive; id < toExclusive; id++) {
      sink.invoke(id, NO_CONTEXT);
    }
  }

  /** The sink's snapshot of {@code checkpointId}; the checkpoint completes once it is stored. */
  void snapshot(long checkpointId) throws Exception {
    ((CheckpointedFunction) sink)
        .snapshotState(
            new FunctionSnapshotContext() {
              @Override
              public long checkpointId() {
                return checkpointId;
              }

              @Override
              public long checkpointTimestamp() {
                return System.currentTimeMillis();
              }
            });
  }

  /** Writes the state of the last snapshot to {@code stateFile}: the checkpoint completed. */
  void storeCheckpoint(Path stateFile) throws IOException {
    Path temporary = stateFile.resolveSibling(stateFile.getFileName() + ".tmp");
    Files.write(temporary, encode(state.get()));
    Files.move(temporary, stateFile, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Notifies a sink that listens for completed checkpoints (the at-least-once one does not). */
  void notifyComplete(long checkpointId) throws Exception {
    if (!(sink instanceof CheckpointListener)) {
      return;
    }
    ((CheckpointListener) sink).notifyCheckpointComplete(checkpointId);
  }

  void close() throws Exception {
    ((RichFunction) sink).close();
  }

  private static byte[] encode(List<byte[]> elements) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      out.writeInt(elements.size());
      for (byte[] element : elements) {
        out.writeInt(element.length);
        out.write(element);
      }
    }
    return bytes.toByteArray();
  }

  /** The sink's state elements in {@code stateFile}, as the job's recovery step is given them. */
  static List<byte[]> storedState(Path stateFile) throws IOException {
    return read(stateFile);
  }

  private static List<byte[]> read(Path file) throws IOException {
    try (DataInputStream in =
        new DataInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
      int count = in.readInt();
      List<byte[]> elements = new ArrayList<>();
      for (int index = 0; index < count; index++) {
        elements.add(in.readNBytes(in.readInt()));
      }
      return elements;
    }
  }

  private final class Initialization implements FunctionInitializationContext, OperatorStateStore {
    private final boolean restored;

    Initialization(boolean restored) {
      this.restored = restored;
    }

    @Override
    public boolean isRestored() {
      return restored;
    }

    @Override
    public OptionalLong restoredCheckpointId() {
      return OptionalLong.empty();
    }

    @Override
    public OperatorStateStore getOperatorStateStore() {
      return this;
    }

    @Override
    public KeyedStateStore getKeyedStateStore() {
      throw new IllegalStateException("no keyed state in a sink");
    }

    @SuppressWarnings("unchecked")
    @Override
    public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
      return (ListState<T>) state;
    }

    @Override
    public <T> ListState<T> getUnionListState(ListStateDescriptor<T> descriptor) {
      return getListState(descriptor);
    }
  }

  private static final class MemoryListState implements ListState<byte[]> {
    private final List<byte[]> elements = new ArrayList<>();

    @Override
    public List<byte[]> get() {
      return List.copyOf(elements);
    }

    @Override
    public void add(byte[] value) {
      elements.add(value);
    }

    @Override
    public void addAll(List<byte[]> values) {
      elements.addAll(values);
    }

    @Override
    public void update(List<byte[]> values) {
      elements.clear();
      elements.addAll(values);
    }

    @Override
    public void clear() {
      elements.clear();
    }
  }

  private static final class Subtask implements RuntimeContext {
    private final Failpoints failpoints;
    private final String jobName;
    private final int subtaskIndex;
    private final LeaseEpoch leaseEpoch;

    Subtask(Failpoints failpoints, String jobName, int subtaskIndex, LeaseEpoch leaseEpoch) {
      this.failpoints = failpoints;
      this.jobName = jobName;
      this.subtaskIndex = subtaskIndex;
      this.leaseEpoch = leaseEpoch;
    }

    @Override
    public LeaseEpoch leaseEpoch() {
      return leaseEpoch;
    }

    @Override
    public String jobName() {
      return jobName;
    }

    @Override
    public String operatorName() {
      return "Sink: postgres";
    }

    @Override
    public int subtaskIndex() {
      return subtaskIndex;
    }

    @Override
    public int parallelism() {
      return subtaskIndex + 1;
    }

    @Override
    public int maxParallelism() {
      return 128;
    }

    @Override
    public int attempt() {
      return 0;
    }

    @Override
    public CommitObserver commitObserver() {
      return new FailpointCommitObserver(failpoints);
    }

    @Override
    public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
      throw new UnsupportedOperationException();
    }

    @Override
    public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
      throw new UnsupportedOperationException();
    }
  }
}

package io.weir.api.datastream;

import io.weir.api.annotation.Public;
import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.checkpoint.NotifyOrder;
import io.weir.api.state.StateBackend;
import io.weir.api.state.StateBackends;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A job's settings. Defaults follow the seed's system: checkpoints off until an interval is set,
 * one retained checkpoint, notifications tail first.
 */
@Public
public final class JobConfig {
  /** How many times one record may fail the job before it fails for good, by default. */
  public static final int DEFAULT_FAILURES_PER_RECORD = 3;

  private int parallelism = 1;
  private int maxParallelism = 128;
  private boolean chaining = true;
  private Duration checkpointInterval;
  private CheckpointingMode checkpointingMode = CheckpointingMode.EXACTLY_ONCE;
  private Duration checkpointTimeout = Duration.ofMinutes(10);
  private boolean unalignedCheckpoints;
  private Duration alignedCheckpointTimeout = Duration.ZERO;
  private Duration inFlightDataTarget = Duration.ofSeconds(1);
  private Duration minPauseBetweenCheckpoints = Duration.ZERO;
  private int maxConcurrentCheckpoints = 1;
  private Path checkpointDirectory;
  private boolean checkpointsInMemory;
  private int retainedCheckpoints = 1;
  private NotifyOrder notifyOrder = NotifyOrder.REVERSE;
  private RestartStrategy restartStrategy;
  private Path restorePath;
  private Duration autoWatermarkInterval = Duration.ofMillis(200);
  private Duration bufferTimeout = Duration.ofMillis(5);
  private boolean fresh;
  private boolean allowFallback;
  private Duration progressInterval;
  private int failuresPerRecord = DEFAULT_FAILURES_PER_RECORD;
  private boolean acceptDataLoss;
  private StateBackend stateBackend = StateBackends.heap();
  private String failpoints;
  private final Set<Class<?>> javaSerializedTypes = new LinkedHashSet<>();

  public int parallelism() {
    return parallelism;
  }

  public JobConfig parallelism(int parallelism) {
    if (parallelism < 1) {
      throw new IllegalArgumentException("Parallelism must be at least 1, got " + parallelism);
    }
    this.parallelism = parallelism;
    return this;
  }

  public int maxParallelism() {
    return maxParallelism;
  }

  public JobConfig maxParallelism(int maxParallelism) {
    if (maxParallelism < 1 || maxParallelism > 32768) {
      throw new IllegalArgumentException("Max parallelism must be 1..32768, got " + maxParallelism);
    }
    this.maxParallelism = maxParallelism;
    return this;
  }

  public boolean chaining() {
    return chaining;
  }

  public JobConfig chaining(boolean chaining) {
    this.chaining = chaining;
    return this;
  }

  /** The checkpoint interval, or null when periodic checkpoints are off. */
  public Duration checkpointInterval() {
    return checkpointInterval;
  }

  public JobConfig checkpointInterval(Duration interval) {
    if (interval != null && interval.toMillis() < 1) {
      throw new IllegalArgumentException("The checkpoint interval must be at least 1 ms");
    }
    this.checkpointInterval = interval;
    return this;
  }

  public CheckpointingMode checkpointingMode() {
    return checkpointingMode;
  }

  public JobConfig checkpointingMode(CheckpointingMode mode) {
    this.checkpointingMode = mode;
    return this;
  }

  /**
   * Whether an exactly-once checkpoint's barrier may overtake the records queued in a task's input:
   * the task snapshots at the first barrier and stores the records still in flight with its state,
   * replaying them on restore. Off by default (barriers are aligned).
   */
  public boolean unalignedCheckpoints() {
    return unalignedCheckpoints;
  }

  /** Lets barriers overtake queued records ({@link #unalignedCheckpoints()}). */
  public JobConfig enableUnalignedCheckpoints() {
    return unalignedCheckpoints(true);
  }

  public JobConfig unalignedCheckpoints(boolean unaligned) {
    this.unalignedCheckpoints = unaligned;
    return this;
  }

  /**
   * How long a task aligns a checkpoint's barriers before it switches that checkpoint to unaligned;
   * zero (the default) means unaligned from the first barrier. Only used when {@link
   * #unalignedCheckpoints()} is on.
   */
  public Duration alignedCheckpointTimeout() {
    return alignedCheckpointTimeout;
  }

  public JobConfig alignedCheckpointTimeout(Duration timeout) {
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("Aligned checkpoint timeout must not be negative");
    }
    this.alignedCheckpointTimeout = timeout;
    return this;
  }

  /**
   * How much of a task's current throughput its input may hold queued: each input channel's credit
   * (the records a sender may put in one batch to it) adapts to the task's measured throughput so
   * that the batches the task's input holds take about this long to process, which bounds both an
   * aligned barrier's wait behind them and the memory they take. One second by default; zero turns
   * the adaptation off (batches keep their full size).
   */
  public Duration inFlightDataTarget() {
    return inFlightDataTarget;
  }

  public JobConfig inFlightDataTarget(Duration target) {
    if (target.isNegative()) {
      throw new IllegalArgumentException(
          "In-flight data target must not be negative, got " + target);
    }
    this.inFlightDataTarget = target;
    return this;
  }

  public Duration checkpointTimeout() {
    return checkpointTimeout;
  }

  public JobConfig checkpointTimeout(Duration timeout) {
    this.checkpointTimeout = timeout;
    return this;
  }

  public Duration minPauseBetweenCheckpoints() {
    return minPauseBetweenCheckpoints;
  }

  public JobConfig minPauseBetweenCheckpoints(Duration pause) {
    this.minPauseBetweenCheckpoints = pause;
    return this;
  }

  public int maxConcurrentCheckpoints() {
    return maxConcurrentCheckpoints;
  }

  public JobConfig maxConcurrentCheckpoints(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("Max concurrent checkpoints must be at least 1");
    }
    this.maxConcurrentCheckpoints = max;
    return this;
  }

  /**
   * Where checkpoints are stored, or null when none was set. A job run in this process without one
   * keeps its checkpoints in memory (lost with the process), unless it has a two-phase-commit sink:
   * then it gets {@code .weir/checkpoints} under the working directory, so that a rerun commits
   * what a crashed run left pending (see {@link #checkpointsInMemory()}).
   */
  public Path checkpointDirectory() {
    return checkpointDirectory;
  }

  public JobConfig checkpointDirectory(Path directory) {
    this.checkpointDirectory = directory;
    return this;
  }

  /**
   * Whether a job without a checkpoint directory keeps its checkpoints in memory even when it has a
   * two-phase-commit sink (default false: it gets the durable default directory). A rerun of such a
   * job cannot know what a crashed run's sinks left pending; for tests and throwaway runs.
   */
  public boolean checkpointsInMemory() {
    return checkpointsInMemory;
  }

  public JobConfig checkpointsInMemory(boolean inMemory) {
    this.checkpointsInMemory = inMemory;
    return this;
  }

  public int retainedCheckpoints() {
    return retainedCheckpoints;
  }

  public JobConfig retainedCheckpoints(int retained) {
    if (retained < 1) {
      throw new IllegalArgumentException("At least one checkpoint must be retained");
    }
    this.retainedCheckpoints = retained;
    return this;
  }

  public NotifyOrder notifyOrder() {
    return notifyOrder;
  }

  public JobConfig notifyOrder(NotifyOrder order) {
    this.notifyOrder = order;
    return this;
  }

  /**
   * The restart strategy; when none was set: fixed delay (unbounded, 1 s) with checkpoints on, none
   * without, as Flink does.
   */
  public RestartStrategy restartStrategy() {
    if (restartStrategy != null) {
      return restartStrategy;
    }
    return checkpointInterval != null
        ? RestartStrategy.fixedDelay(Integer.MAX_VALUE, Duration.ofSeconds(1))
        : RestartStrategy.none();
  }

  public JobConfig restartStrategy(RestartStrategy strategy) {
    this.restartStrategy = strategy;
    return this;
  }

  /**
   * How many times in a row one record (same source partition and offset) may fail the job before
   * the job fails for good, naming the record, instead of restarting for ever (default 3).
   */
  public int failuresPerRecord() {
    return failuresPerRecord;
  }

  public JobConfig failuresPerRecord(int failures) {
    if (failures < 1) {
      throw new IllegalArgumentException("Failures per record must be at least 1, got " + failures);
    }
    this.failuresPerRecord = failures;
    return this;
  }

  /** The checkpoint or savepoint directory to restore from, or null. */
  public Path restorePath() {
    return restorePath;
  }

  public JobConfig restorePath(Path path) {
    this.restorePath = path;
    return this;
  }

  public Duration autoWatermarkInterval() {
    return autoWatermarkInterval;
  }

  public JobConfig autoWatermarkInterval(Duration interval) {
    this.autoWatermarkInterval = interval;
    return this;
  }

  /** How long a partly filled batch of records may wait before it is sent downstream. */
  public Duration bufferTimeout() {
    return bufferTimeout;
  }

  public JobConfig bufferTimeout(Duration timeout) {
    this.bufferTimeout = timeout;
    return this;
  }

  /**
   * True to start without state even when the checkpoint directory holds completed checkpoints of
   * this job; by default a job resumes from its latest one.
   */
  public boolean fresh() {
    return fresh;
  }

  public JobConfig fresh(boolean fresh) {
    this.fresh = fresh;
    return this;
  }

  /**
   * True to resume from an older checkpoint or savepoint when a newer one is broken, although the
   * job's two-phase-commit sinks may have committed the broken one's output already (the older one
   * would commit it again). By default such a fallback is refused; without two-phase-commit sinks
   * it happens with a warning.
   */
  public boolean allowFallback() {
    return allowFallback;
  }

  public JobConfig allowFallback(boolean allowFallback) {
    this.allowFallback = allowFallback;
    return this;
  }

  /** How often a running job prints a progress line, or null for never. */
  public Duration progressInterval() {
    return progressInterval;
  }

  public JobConfig progressInterval(Duration interval) {
    this.progressInterval = interval;
    return this;
  }

  /**
   * Whether a restore goes on when a sink proves that a transaction of the restored checkpoint was
   * aborted (its records are lost). By default the job fails with one line naming the checkpoint,
   * sink, transaction and record count.
   */
  public boolean acceptDataLoss() {
    return acceptDataLoss;
  }

  public JobConfig acceptDataLoss(boolean accept) {
    this.acceptDataLoss = accept;
    return this;
  }

  /** Where keyed state lives: the heap (default) or RocksDB. */
  public StateBackend stateBackend() {
    return stateBackend;
  }

  public JobConfig stateBackend(StateBackend backend) {
    this.stateBackend = java.util.Objects.requireNonNull(backend, "backend");
    return this;
  }

  /**
   * The failpoints armed in this job ({@code name=action[@hit],...}, e.g. {@code
   * checkpoint.trigger=throw@2}), or null when the runner arms those of its process ({@code
   * -Dweir.failpoints} or {@code WEIR_FAILPOINTS}). Each job has its own: two jobs in one JVM never
   * share an armed failpoint or its hit count.
   */
  public String failpoints() {
    return failpoints;
  }

  public JobConfig failpoints(String configuration) {
    this.failpoints = configuration;
    return this;
  }

  /**
   * Types the job's default serializers ({@code DataStream.returns}) write by Java serialization,
   * wherever they appear: the explicit fallback for a type that is neither a record, a POJO, nor
   * one of the common types. Without it such a type fails the job's build in one line naming the
   * type and the operator.
   */
  public JobConfig allowJavaSerialization(Class<?>... types) {
    javaSerializedTypes.addAll(List.of(types));
    return this;
  }

  /** The types named by {@link #allowJavaSerialization}. */
  public Set<Class<?>> javaSerializedTypes() {
    return Set.copyOf(javaSerializedTypes);
  }
}

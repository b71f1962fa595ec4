package io.weir.api.datastream;

import io.weir.api.annotation.Public;
import io.weir.api.checkpoint.CheckpointingMode;
import io.weir.api.graph.Input;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.api.source.FromElementsSource;
import io.weir.api.source.GeneratorSource;
import io.weir.api.source.ParallelSourceFunction;
import io.weir.api.source.ReaderSource;
import io.weir.api.source.SourceFunction;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.ServiceLoader;
import java.util.function.Consumer;

/**
 * Where a job is described and started. Runs locally in this JVM unless the runner that launched
 * the job's {@code main} (the command line, a cluster's job manager, a test) installed another
 * context on the thread that runs it.
 */
@Public
public final class StreamEnvironment {
  /**
   * The context of the job whose {@code main} runs on this thread. Bound to the thread, not the
   * process, so that two runners launching jobs side by side in one JVM never see each other's.
   */
  private static final ThreadLocal<Context> CONTEXT = new ThreadLocal<>();

  private final JobConfig config = new JobConfig();
  private final List<Transformation> transformations = new ArrayList<>();

  private StreamEnvironment() {}

  /** An environment with the launching command's settings applied at {@link #execute}. */
  public static StreamEnvironment getExecutionEnvironment() {
    return new StreamEnvironment();
  }

  /**
   * Installed by a launcher (the command line) around a job's {@code main}: an executor to use
   * instead of the local one, and overrides applied to the job's config before it runs.
   */
  public record Context(JobExecutor executor, Consumer<JobConfig> overrides) {}

  /**
   * Installs {@code newContext} for the calling thread: the environments that the job's {@code
   * main} executes on this thread use it. Call {@link #clearContext} on the same thread when the
   * job's {@code main} returns. Other threads keep their own context (or none).
   */
  public static void setContext(Context newContext) {
    CONTEXT.set(newContext);
  }

  /** Removes the calling thread's context. */
  public static void clearContext() {
    CONTEXT.remove();
  }

  public JobConfig config() {
    return config;
  }

  /** The default number of subtasks of every operator that does not set its own. */
  public StreamEnvironment setParallelism(int parallelism) {
    config.parallelism(parallelism);
    return this;
  }

  /**
   * The number of key groups, 1..32768 (default 128): the most subtasks a keyed operator can
   * rescale to. It cannot change across a restore.
   */
  public StreamEnvironment setMaxParallelism(int maxParallelism) {
    config.maxParallelism(maxParallelism);
    return this;
  }

  /** Runs every operator in a task of its own. */
  public StreamEnvironment disableOperatorChaining() {
    config.chaining(false);
    return this;
  }

  /**
   * Takes a checkpoint every {@code interval}, exactly-once (aligned barriers). Without periodic
   * checkpoints nothing is restored after a failure; a bounded job still takes a final checkpoint
   * when its input ends, where two-phase-commit sinks commit.
   */
  public StreamEnvironment enableCheckpointing(Duration interval) {
    config.checkpointInterval(interval);
    return this;
  }

  /** Takes a checkpoint every {@code interval} in the given mode. */
  public StreamEnvironment enableCheckpointing(Duration interval, CheckpointingMode mode) {
    config.checkpointInterval(interval).checkpointingMode(mode);
    return this;
  }

  /**
   * Where completed checkpoints are stored, under {@code <directory>/<job name>/chk-<id>}; without
   * it they live in memory and do not survive the process.
   */
  public StreamEnvironment setCheckpointDirectory(Path directory) {
    config.checkpointDirectory(directory);
    return this;
  }

  /**
   * Where keyed state lives: {@code StateBackends.heap()} (the default) or {@code
   * StateBackends.rocksdb()} for state larger than memory, with incremental checkpoints.
   */
  public StreamEnvironment setStateBackend(io.weir.api.state.StateBackend backend) {
    config.stateBackend(backend);
    return this;
  }

  /** What a failure does: restart from the latest completed checkpoint, or fail the job. */
  public StreamEnvironment setRestartStrategy(RestartStrategy strategy) {
    config.restartStrategy(strategy);
    return this;
  }

  /** Restores the job from a checkpoint or savepoint directory (the command line's {@code -s}). */
  public StreamEnvironment fromCheckpoint(Path path) {
    config.restorePath(path);
    return this;
  }

  /**
   * A stream read by {@code source}: one subtask, or the job's parallelism for a {@link
   * ParallelSourceFunction}. The source runs on a thread of its own and emits under its checkpoint
   * lock; its task takes what it emitted between checkpoint barriers.
   */
  public <T> DataStream<T> addSource(SourceFunction<T> source) {
    int parallelism = source instanceof ParallelSourceFunction ? -1 : 1;
    Transformation t = add(new OperatorSpec.Source(source), List.of(), parallelism);
    return new DataStream<>(this, t);
  }

  /**
   * A stream read by {@code source}, at the job's parallelism: each subtask's task polls a reader
   * of its own on the task's thread.
   */
  public <T> DataStream<T> addSource(ReaderSource<T> source) {
    Transformation t = add(new OperatorSpec.Source(source), List.of(), -1);
    return new DataStream<>(this, t);
  }

  @SafeVarargs
  public final <T> DataStream<T> fromElements(T... elements) {
    return fromCollection(Arrays.asList(elements));
  }

  public <T> DataStream<T> fromCollection(Collection<T> elements) {
    DataStream<T> stream = addSource(new FromElementsSource<>(new ArrayList<>(elements)));
    stream.name("Collection Source");
    return stream;
  }

  /** A parallel, checkpointed source of {@code count} generated records. */
  public <T> DataStream<T> fromGenerator(long count, GeneratorSource.Generator<T> generator) {
    DataStream<T> stream = addSource(new GeneratorSource<>(count, generator));
    stream.name("Generator Source");
    return stream;
  }

  Transformation add(OperatorSpec spec, List<Input> inputs, int parallelism) {
    Transformation t = new Transformation(transformations.size() + 1, spec, inputs, parallelism);
    transformations.add(t);
    return t;
  }

  /** The job as described so far. */
  public StreamPlan plan(String jobName) {
    return new StreamPlan(jobName, List.copyOf(transformations), config);
  }

  /** Runs the job and blocks until it finished or failed. */
  public JobResult execute(String jobName) throws JobExecutionException {
    return executor(jobName).execute(plan(jobName));
  }

  /** Starts the job in the background. */
  public JobClient executeAsync(String jobName) throws JobExecutionException {
    return executor(jobName).executeAsync(plan(jobName));
  }

  private JobExecutor executor(String jobName) {
    if (transformations.isEmpty()) {
      throw new IllegalStateException("The job '" + jobName + "' has no operators");
    }
    Context current = CONTEXT.get();
    if (current != null && current.overrides() != null) {
      current.overrides().accept(config);
    }
    JobExecutor executor = current != null ? current.executor() : null;
    if (executor == null) {
      executor =
          ServiceLoader.load(JobExecutor.class)
              .findFirst()
              .orElseThrow(
                  () ->
                      new IllegalStateException(
                          "No Weir runtime on the class path: add the weir-runtime module"));
    }
    return executor;
  }
}

package io.weir.lab.bench;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.datastream.StreamPlan;
import io.weir.examples.SeedJob;
import io.weir.examples.SeedJobOptions;
import io.weir.examples.SeedRecords;
import io.weir.lab.Percentile;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.Directories;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.execution.LocalJobExecutor;
import io.weir.runtime.execution.LocalJobs;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.JobOverview;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Aligned against unaligned checkpoints, and aligned with adaptive in-flight data, in this JVM: the
 * seed job on its generator (source -> keyBy -> map -> exactly-once file sink, parallelism 1) with
 * the map slowed per record and the source paced at three times what the map can take, so that
 * every input gate is full and barriers queue behind it; the job fails once mid-run (a failpoint)
 * and restarts from its latest checkpoint. Checkpoint durations and records in flight are read from
 * the retained checkpoints, the bytes queued in input gates sampled while the job runs, lost and
 * duplicated records from the committed output. Then the same job unslowed and unpaced, for the
 * throughput of each mode without backpressure.
 */
public final class BackpressureBench {
  /** The in-flight data target of the adaptive mode: the default. */
  public static final Duration ADAPTIVE_TARGET = new JobConfig().inFlightDataTarget();

  /** How a mode checkpoints: aligned or unaligned, with or without adaptive in-flight data. */
  record Mode(String name, boolean unaligned, Duration inFlightDataTarget) {}

  private static final List<Mode> MODES =
      List.of(
          new Mode("aligned", false, Duration.ZERO),
          new Mode("unaligned", true, Duration.ZERO),
          new Mode("aligned_adaptive", false, ADAPTIVE_TARGET));

  /** What the benchmark is given. */
  public record Settings(
      long records, long recordDelayMicros, long unloadedRecords, Path directory) {
    /** Input paced at three times what the slowed map can take. */
    long overloadRate() {
      return 3 * 1_000_000 / recordDelayMicros;
    }
  }

  /**
   * One mode's figures.
   *
   * @param maxInFlightBytes the most bytes queued in input gates at once, sampled while the
   *     overloaded job ran
   * @param maxCheckpointInFlightBytes the most bytes of records in flight one checkpoint stored
   */
  public record Result(
      String mode,
      List<Long> checkpointMillis,
      long maxInFlightBytes,
      long maxCheckpointInFlightBytes,
      long lost,
      long duplicated,
      double unloadedRecordsPerSecond) {
    public long percentileMillis(double percentile) {
      return Percentile.of(checkpointMillis, percentile);
    }
  }

  private static final Duration CHECKPOINT_INTERVAL = Duration.ofMillis(500);
  private static final String MID_RUN_FAILURE = "task.snapshot.after=throw@8";
  private static final Duration IN_FLIGHT_SAMPLING = Duration.ofMillis(50);

  private final Settings settings;
  private final Consumer<String> progress;

  public BackpressureBench(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  /** The aligned result, the unaligned one, then the aligned one with adaptive in-flight data. */
  public List<Result> run() throws Exception {
    double[] unloaded = unloadedThroughput();
    List<Result> results = new ArrayList<>();
    for (int mode = 0; mode < MODES.size(); mode++) {
      results.add(overloaded(MODES.get(mode), unloaded[mode]));
    }
    return results;
  }

  /**
   * Records per second of each mode's job without backpressure: after a warm-up, two runs each,
   * alternating, the best of each kept (as the in-memory bench does).
   */
  private double[] unloadedThroughput() throws Exception {
    progress.accept("unloaded throughput, " + settings.unloadedRecords() + " records a run");
    runUnloaded(settings.unloadedRecords() / 10, MODES.get(0));
    double[] best = new double[MODES.size()];
    for (int round = 0; round < 2; round++) {
      for (int mode = 0; mode < MODES.size(); mode++) {
        best[mode] = Math.max(best[mode], runUnloaded(settings.unloadedRecords(), MODES.get(mode)));
      }
    }
    return best;
  }

  private double runUnloaded(long records, Mode mode) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    SeedJob.build(env, SeedJobOptions.parse("--records", Long.toString(records)));
    env.config()
        .checkpointInterval(Duration.ofSeconds(1))
        .unalignedCheckpoints(mode.unaligned())
        .inFlightDataTarget(mode.inFlightDataTarget());
    long started = System.nanoTime();
    env.execute("backpressure-unloaded");
    return records * 1e9 / (System.nanoTime() - started);
  }

  private Result overloaded(Mode mode, double unloadedRecordsPerSecond) throws Exception {
    Path runDirectory = settings.directory().resolve(mode.name());
    Directories.deleteRecursively(runDirectory);
    Path checkpoints = runDirectory.resolve("checkpoints");
    Path output = runDirectory.resolve("output");
    Files.createDirectories(output);
    progress.accept(
        String.format(
            "%s: %,d records offered at %,d/s to a map taking %d us a record",
            mode.name(),
            settings.records(),
            settings.overloadRate(),
            settings.recordDelayMicros()));
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    SeedJob.build(
        env,
        SeedJobOptions.parse(
            "--records", Long.toString(settings.records()),
            "--rate", Long.toString(settings.overloadRate()),
            "--record-delay-micros", Long.toString(settings.recordDelayMicros()),
            "--output-dir", output.toString(),
            "--checkpoint-interval", Long.toString(CHECKPOINT_INTERVAL.toMillis())));
    env.setCheckpointDirectory(checkpoints);
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100)));
    env.config()
        .retainedCheckpoints(100_000)
        .unalignedCheckpoints(mode.unaligned())
        .inFlightDataTarget(mode.inFlightDataTarget())
        .failpoints(MID_RUN_FAILURE);
    String jobName = "backpressure-" + mode.name();
    long maxQueued = runSampled(env.plan(jobName));
    List<Long> durations = new ArrayList<>();
    long maxInFlight = 0;
    Path jobDirectory = checkpoints.resolve(jobName);
    for (Path directory : CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory)) {
      CompletedCheckpoint checkpoint = CheckpointLoader.load(directory);
      long completed =
          Files.getLastModifiedTime(directory.resolve(MetadataFormat.FILE_NAME)).toMillis();
      // A file's time comes from the kernel's coarse clock, which may trail the millisecond clock
      // the trigger time was read from by up to a tick: a checkpoint shorter than that reads as 0.
      durations.add(Math.max(0, completed - checkpoint.timestamp()));
      maxInFlight = Math.max(maxInFlight, inFlightBytes(checkpoint));
    }
    long[] counts = committedCounts(output);
    long lost = 0;
    long duplicated = 0;
    for (long count : counts) {
      lost += count == 0 ? 1 : 0;
      duplicated += Math.max(0, count - 1);
    }
    return new Result(
        mode.name(), durations, maxQueued, maxInFlight, lost, duplicated, unloadedRecordsPerSecond);
  }

  /** Runs the job, sampling the bytes queued in its input gates; returns the most at once. */
  private static long runSampled(StreamPlan plan) throws Exception {
    LocalJobs jobs = new LocalJobs();
    AtomicLong maxQueued = new AtomicLong();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    try {
      sampler.scheduleAtFixedRate(
          () -> maxQueued.accumulateAndGet(queuedBytes(jobs), Math::max),
          0,
          IN_FLIGHT_SAMPLING.toMillis(),
          TimeUnit.MILLISECONDS);
      new LocalJobExecutor(jobs).execute(plan);
    } finally {
      sampler.shutdownNow();
    }
    return maxQueued.get();
  }

  private static long queuedBytes(LocalJobs jobs) {
    long bytes = 0;
    for (JobOverview overview : jobs.jobs()) {
      for (TaskView task : jobs.job(overview.id()).map(JobDetail::tasks).orElse(List.of())) {
        for (SubtaskView subtask : task.subtasks()) {
          bytes += subtask.queuedBytes();
        }
      }
    }
    return bytes;
  }

  private static long inFlightBytes(CompletedCheckpoint checkpoint) {
    return checkpoint.operators().values().stream()
        .flatMap(operator -> operator.subtasks().values().stream())
        .flatMap(subtask -> subtask.listStates().entrySet().stream())
        .filter(state -> InFlightRecords.isInFlightState(state.getKey()))
        .flatMap(state -> state.getValue().stream())
        .mapToLong(element -> element.length)
        .sum();
  }

  /** How often each input record is in the committed part files, by record index. */
  private long[] committedCounts(Path output) throws IOException {
    long[] counts = new long[Math.toIntExact(settings.records())];
    try (Stream<Path> files = Files.list(output)) {
      for (Path file : files.filter(f -> f.getFileName().toString().startsWith("part-")).toList()) {
        for (String line : Files.readAllLines(file)) {
          long index =
              Long.parseLong(line.substring(line.lastIndexOf(',') + 1))
                  - SeedRecords.BASE_TIMESTAMP;
          counts[Math.toIntExact(index)]++;
        }
      }
    }
    return counts;
  }
}

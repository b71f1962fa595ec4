package io.weir.lab.bench;

import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.LabCluster;
import io.weir.lab.process.ProcessMemory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.Consumer;
import java.util.function.LongToDoubleFunction;

/**
 * The benchmark on a real broker: loads the seed's records into {@code foo} once, then runs each
 * {@link Pipeline} on them, each run in a fresh JVM with its own group and output topic. A run
 * measures what a user waits for (process launch to the first and to the last committed output),
 * throughput on the loaded records (first output written to last output committed), the CPU time
 * and peak memory of its process and the verifier's lost and duplicated counts; the first run of a
 * pipeline also measures latency on a paced input of its own. With a session cluster ({@link
 * #startSession}) the exactly-once job also runs submitted to it; its CPU time is the client's plus
 * what the cluster's processes used during the run, its peak memory the client's plus the cluster
 * processes' peaks so far (an upper bound: they outlive the run).
 */
public final class KafkaBench {
  private static final String INPUT = "foo";
  private static final int WARM_UP_RECORDS = 1000;
  private static final long STALL_MILLIS = 3000;

  public record Settings(
      long records,
      int partitions,
      int parallelism,
      int latencyRecords,
      long latencyRate,
      Path directory,
      boolean dashboard,
      JobJvmOptions jvmOptions) {
    /** Settings whose processes get no JVM options of the user's. */
    public Settings(
        long records,
        int partitions,
        int parallelism,
        int latencyRecords,
        long latencyRate,
        Path directory,
        boolean dashboard) {
      this(
          records,
          partitions,
          parallelism,
          latencyRecords,
          latencyRate,
          directory,
          dashboard,
          JobJvmOptions.NONE);
    }
  }

  /**
   * One run's figures; {@code repetition} counts from 1, the runs of one repetition back to back.
   * {@code restarts} as the Weir job reported them when it ended (none for the loop, which fails
   * instead).
   */
  public record RunResult(
      Pipeline pipeline,
      int repetition,
      double recordsPerSecond,
      double launchToDoneSeconds,
      double firstCommitAfterLaunchSeconds,
      double cpuSeconds,
      Latency latency,
      double peakResidentMebibytes,
      long lost,
      long duplicated,
      OptionalInt restarts) {}

  private final Settings settings;
  private final String bootstrap;
  private final Consumer<String> progress;
  private LabCluster session;

  public KafkaBench(Settings settings, String bootstrap, Consumer<String> progress) {
    this.settings = settings;
    this.bootstrap = bootstrap;
    this.progress = progress;
  }

  public void load() throws Exception {
    Topics.create(bootstrap, settings.partitions(), INPUT);
    progress.accept(String.format("loading %,d records into %s", settings.records(), INPUT));
    new SeedInput(bootstrap, INPUT).load(0, settings.records(), 0);
    BrokerWarmUp.warm(bootstrap, INPUT);
  }

  /**
   * Starts a session cluster (a job manager and a task manager) that {@link Pipeline#WEIR_SESSION}
   * submits to, and runs that pipeline once unmeasured: a session cluster in use has run jobs
   * before. The caller closes it.
   */
  public LabCluster startSession() throws Exception {
    progress.accept("starting a session cluster (a job manager and a task manager)");
    session =
        LabCluster.start(
            settings.directory().resolve("session"),
            settings.parallelism(),
            Duration.ofSeconds(120));
    progress.accept("session cluster: one unmeasured job before the measured ones");
    try {
      run(Pipeline.WEIR_SESSION, 0, false);
    } catch (Exception | Error e) {
      session.close();
      throw e;
    }
    return session;
  }

  /** The pipelines to alternate: the session's only with a session cluster. */
  public List<Pipeline> pipelines() {
    List<Pipeline> pipelines = new ArrayList<>(List.of(Pipeline.values()));
    if (session == null) {
      pipelines.remove(Pipeline.WEIR_SESSION);
    }
    return pipelines;
  }

  /**
   * Runs {@code pipeline} on the loaded records in a fresh JVM; its latency only when {@code
   * withLatency} (it needs a run of its own).
   */
  public RunResult run(Pipeline pipeline, int repetition, boolean withLatency) throws Exception {
    String name = pipeline.key() + "-" + repetition;
    String output = "bar-" + name;
    Topics.create(bootstrap, settings.partitions(), output);
    Pipeline.Wiring wiring = wiring(INPUT, output, "bench-" + name, true);
    progress.accept("run " + name + ": from launch to the last committed output");
    double recordsPerSecond;
    double launchToDone;
    double firstCommit;
    double cpu;
    double peak;
    OptionalInt restarts;
    double clusterCpuBefore = overCluster(pipeline, ProcessCpu::seconds);
    try (CommitWatcher written =
            new CommitWatcher(bootstrap, output, settings.partitions(), false, 0, 1);
        CommitWatcher committed = watchAll(output);
        BenchProcess process = pipeline.start(wiring, "throughput-" + repetition)) {
      awaitAll(committed, process, pipeline);
      recordsPerSecond =
          settings.records() * 1e9 / (committed.lastArrivalNanos() - written.firstArrivalNanos());
      launchToDone = (committed.lastArrivalNanos() - process.launchedNanos()) / 1e9;
      firstCommit = (committed.firstArrivalNanos() - process.launchedNanos()) / 1e9;
      process.waitFor(30_000);
      cpu = process.cpuSeconds() + overCluster(pipeline, ProcessCpu::seconds) - clusterCpuBefore;
      peak =
          process.peakResidentMebibytes()
              + overCluster(pipeline, ProcessMemory::peakResidentMebibytes);
      restarts = pipeline == Pipeline.RAW ? OptionalInt.empty() : JobLog.restarts(process.log());
    }
    if (restarts.orElse(0) > 0) {
      progress.accept(
          "run "
              + name
              + ": the job restarted "
              + restarts.getAsInt()
              + " time(s), so this run's figures include a recovery; see its log in "
              + settings.directory());
    }
    OutputVerifier.Verdict verdict =
        new OutputVerifier(bootstrap, output).read(true).verify(0, settings.records());
    Latency latency = null;
    if (withLatency) {
      progress.accept("run " + pipeline.key() + ": latency");
      latency = measureLatency(pipeline);
    }
    return new RunResult(
        pipeline,
        repetition,
        recordsPerSecond,
        launchToDone,
        firstCommit,
        cpu,
        latency,
        peak,
        verdict.lost(),
        verdict.duplicated(),
        restarts);
  }

  /** Kills the exactly-once job mid-run and restarts it from its latest checkpoint. */
  public RecoveryResult recover() throws Exception {
    String output = "bar-recovery";
    Topics.create(bootstrap, settings.partitions(), output);
    Pipeline.Wiring wiring = wiring(INPUT, output, "bench-recovery", true);
    progress.accept("recovery: exactly-once job, kill -9 after its first committed output");
    try (CommitWatcher committed = watchAll(output)) {
      long killed;
      try (BenchProcess first = Pipeline.WEIR_EXACTLY_ONCE.start(wiring, "before-kill")) {
        awaitFirstCommitted(committed, first);
        Thread.sleep(500);
        first.kill();
        killed = System.nanoTime();
      }
      long seenAtKill = committed.distinct();
      long restarted = System.nanoTime();
      try (BenchProcess second = Pipeline.WEIR_EXACTLY_ONCE.start(wiring, "after-kill")) {
        // While the new JVM starts (it cannot commit within this time): what is committed now was
        // committed by the killed process, even if the watcher reads it only later.
        committed.markCommittedEnd();
        awaitAll(committed, second, Pipeline.WEIR_EXACTLY_ONCE);
        second.waitFor(30_000);
      }
      long firstNew = committed.firstArrivalAfterMark();
      if (firstNew == 0) {
        throw new LabUserError(
            "The exactly-once job had committed all "
                + settings.records()
                + " records before it was killed, so its recovery cannot be timed; use more"
                + " --records");
      }
      OutputVerifier.Verdict verdict =
          new OutputVerifier(bootstrap, output).read(true).verify(0, settings.records());
      return new RecoveryResult(
          seenAtKill,
          (firstNew - killed) / 1e6,
          (firstNew - restarted) / 1e6,
          verdict.lost(),
          verdict.duplicated());
    }
  }

  /** What a kill and restart cost, and whether the output stayed exactly-once. */
  record RecoveryResult(
      long committedAtKill,
      double killToFirstNewCommitMillis,
      double restartToFirstNewCommitMillis,
      long lost,
      long duplicated) {}

  private Latency measureLatency(Pipeline pipeline) throws Exception {
    String input = "foo-latency-" + pipeline.key();
    String output = "bar-latency-" + pipeline.key();
    Topics.create(bootstrap, settings.partitions(), input, output);
    Pipeline.Wiring wiring = wiring(input, output, "bench-latency-" + pipeline.key(), false);
    long firstId = settings.records();
    int ids = WARM_UP_RECORDS + settings.latencyRecords();
    try (CommitWatcher committed =
            new CommitWatcher(bootstrap, output, settings.partitions(), true, firstId, ids);
        BenchProcess process = pipeline.start(wiring, "latency")) {
      // Records produced before the pipeline runs would measure its start-up, not its latency.
      PacedLoader.load(bootstrap, input, firstId, WARM_UP_RECORDS, 10_000);
      awaitCount(committed, process, pipeline, WARM_UP_RECORDS);
      long[] produced =
          PacedLoader.load(
              bootstrap,
              input,
              firstId + WARM_UP_RECORDS,
              settings.latencyRecords(),
              settings.latencyRate());
      awaitCount(committed, process, pipeline, ids);
      long[] visible = committed.visibleNanos();
      return Latency.of(produced, java.util.Arrays.copyOfRange(visible, WARM_UP_RECORDS, ids));
    }
  }

  /**
   * A figure summed over the session cluster's processes when the pipeline runs there, else 0: the
   * job runs in them, not (only) in the measured client.
   */
  private double overCluster(Pipeline pipeline, LongToDoubleFunction figure) {
    if (pipeline != Pipeline.WEIR_SESSION) {
      return 0;
    }
    return session.pids().stream().mapToDouble(figure::applyAsDouble).sum();
  }

  private Pipeline.Wiring wiring(String input, String output, String group, boolean bounded) {
    return new Pipeline.Wiring(
        bootstrap,
        input,
        output,
        group,
        settings.parallelism(),
        bounded,
        settings.directory(),
        settings.dashboard(),
        settings.jvmOptions(),
        session == null ? null : session.address());
  }

  private CommitWatcher watchAll(String output) {
    return new CommitWatcher(
        bootstrap, output, settings.partitions(), true, 0, Math.toIntExact(settings.records()));
  }

  private void awaitAll(CommitWatcher committed, BenchProcess process, Pipeline pipeline)
      throws InterruptedException {
    awaitCount(committed, process, pipeline, settings.records());
  }

  private void awaitFirstCommitted(CommitWatcher committed, BenchProcess process)
      throws InterruptedException {
    awaitCount(committed, process, Pipeline.WEIR_EXACTLY_ONCE, 1);
  }

  /** Waits until {@code count} distinct ids are committed; the process must not die before. */
  private void awaitCount(
      CommitWatcher committed, BenchProcess process, Pipeline pipeline, long count)
      throws InterruptedException {
    Duration timeout = Duration.ofSeconds(120 + settings.records() / 20_000);
    long deadline = System.nanoTime() + timeout.toNanos();
    while (committed.distinct() < count) {
      if (!process.isAlive() && committed.distinct() < count) {
        // The watcher may still be reading what the process committed last (far behind on a
        // loaded machine): the run fails only once the watcher stops making progress.
        awaitWatcherStalled(committed, count);
        if (committed.distinct() < count) {
          throw new LabUserError(
              "The "
                  + pipeline.key()
                  + " process ended with "
                  + committed.distinct()
                  + " of "
                  + count
                  + " records committed; see its log in "
                  + settings.directory());
        }
      }
      if (System.nanoTime() > deadline) {
        throw new LabUserError(
            "The "
                + pipeline.key()
                + " run did not commit "
                + count
                + " records within "
                + timeout.toSeconds()
                + " s; see its log in "
                + settings.directory());
      }
      Thread.sleep(20);
    }
  }

  /**
   * Returns when {@code count} ids are seen, or when none was added for {@value #STALL_MILLIS} ms.
   */
  private static void awaitWatcherStalled(CommitWatcher committed, long count)
      throws InterruptedException {
    long seen = -1;
    while (committed.distinct() < count && committed.distinct() > seen) {
      seen = committed.distinct();
      Thread.sleep(STALL_MILLIS);
    }
  }
}

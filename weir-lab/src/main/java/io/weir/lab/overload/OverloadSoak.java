package io.weir.lab.overload;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.lab.CellTopics;
import io.weir.lab.CommitOrder;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.LabFailure;
import io.weir.lab.LabProgress;
import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Polling;
import io.weir.lab.Topics;
import io.weir.lab.process.CheckpointWatch;
import io.weir.lab.process.DashboardPort;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabBroker;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.OutputSettling;
import io.weir.lab.process.ProcessMemory;
import io.weir.runtime.exchange.InFlightRecords;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The overload soak: the seed job (Kafka source, keyBy, a map slowed per record, exactly-once Kafka
 * sink) in a process of its own with a {@value JobHeap#LIMIT_MEBIBYTES} MiB heap, fed in the phases
 * of an {@link OverloadPlan} while an {@link OverloadWatch} looks at it; with a kill, SIGKILL in
 * the middle of the first overload phase (with unaligned checkpoints, once the newest checkpoint
 * holds records in flight) and a plain restart, which resumes from the latest checkpoint. At the
 * end the input stops, the job runs until its output settles, and the committed output is compared
 * with the input, twice, a little apart, so that a late duplicate is counted too.
 */
public final class OverloadSoak {
  private static final String SINK_UID = "example-sink";
  private static final int PARTITIONS = 4;

  /**
   * The sink's transaction timeout: short enough that the broker's abort is a real threat if
   * checkpoints stall, long enough for a kill and a restart.
   */
  private static final Duration TRANSACTION_TIMEOUT = Duration.ofMinutes(1);

  /** A recovery phase has drained its backlog once the lag is this many seconds of its input. */
  private static final long DRAINED_SECONDS = 5;

  /** A late duplicate would come with a later checkpoint: read the output again after a few. */
  private static final Duration LATE_DUPLICATE_WATCH = Duration.ofSeconds(5);

  private final LabJob job;
  private final OverloadSettings settings;
  private final LabProgress progress;
  private final Clock clock;
  private final List<Path> logs = new ArrayList<>();
  // Read by the watch's thread for the process id.
  private volatile JobProcess process;
  private int killPhase;
  // The peak resident memory of the job processes that ended under the soak's hand.
  private double peakResidentMebibytes;

  public OverloadSoak(OverloadSettings settings, LabProgress progress, Clock clock) {
    this.job =
        LabJob.seed()
            .withArguments(
                List.of(
                    "--record-delay-micros",
                    Long.toString(settings.recordDelayMicros()),
                    "--transaction-timeout",
                    Long.toString(TRANSACTION_TIMEOUT.toMillis())));
    this.settings = settings;
    this.progress = progress;
    this.clock = clock;
  }

  public OverloadReport run(Path directory, CellTopics topics) throws Exception {
    OverloadPlan plan = settings.plan();
    progress.line(
        String.format(
            "%s checkpoints, map %d us a record (about %d/s): overload at %d/s, recovery at %d/s",
            settings.unaligned() ? "unaligned" : "aligned",
            settings.recordDelayMicros(),
            plan.capacityPerSecond(),
            plan.overloadRate(),
            plan.recoveryRate()));
    progress.line("starting a Kafka broker in " + directory.resolve("kafka"));
    try (KafkaBroker broker = KafkaBroker.start(LabBroker.config(directory.resolve("kafka")))) {
      String bootstrap = broker.bootstrapServers();
      Topics.create(bootstrap, PARTITIONS, topics.input(), topics.output());
      Path checkpoints = directory.resolve("checkpoints");
      int port = DashboardPort.choose(0, progress::line);
      List<String> run =
          job.runArguments(
              CommitOrder.SOURCE_FIRST, bootstrap, topics, checkpoints, startOptions(port));
      try {
        startProcess(run, directory);
        CheckpointWatch.awaitAfter(
            checkpoints, -1, process::isAlive, process.log(), settings.timeout());
        progress.line("job running, dashboard http://127.0.0.1:" + port + "/");
        return feedAndVerify(plan, run, directory, checkpoints, bootstrap, topics, port);
      } finally {
        if (process != null) {
          process.close();
        }
      }
    }
  }

  private List<String> startOptions(int port) {
    List<String> options =
        new ArrayList<>(List.of("-p", "1", "--web-port", Integer.toString(port)));
    if (settings.unaligned()) {
      options.add("--unaligned");
    }
    return options;
  }

  private OverloadReport feedAndVerify(
      OverloadPlan plan,
      List<String> run,
      Path directory,
      Path checkpoints,
      String bootstrap,
      CellTopics topics,
      int port)
      throws Exception {
    List<OverloadPlan.Phase> phases = plan.phases();
    long[] phaseStarts = new long[phases.size() + 1];
    Boolean killedWithRecordsInFlight;
    OverloadWatch.Observations observations;
    OutputVerifier.Verdict verdict;
    String jobFailure;
    try (ContinuousFeed feed =
            ContinuousFeed.start(bootstrap, topics.input(), phases.get(0).rate(), 0);
        OverloadWatch watch =
            OverloadWatch.start(
                feed,
                bootstrap,
                topics.input(),
                topics.group(),
                new JobApi(port, SINK_UID),
                () -> process.pid(),
                progress,
                clock)) {
      killedWithRecordsInFlight =
          runPhases(phases, phaseStarts, feed, watch, run, directory, checkpoints);
      long records = feed.stop();
      phaseStarts[phases.size()] = clock.millis();
      watch.enterPhase(0);
      progress.line("input stopped at " + records + " records; waiting for the output to settle");
      verdict = settleAndVerify(bootstrap, topics, records);
      notePeakMemory();
      jobFailure = jobFailure();
      observations = watch.stop();
    }
    progress.line(verdict.line());
    return report(plan, phaseStarts, observations, killedWithRecordsInFlight, jobFailure, verdict);
  }

  /**
   * Feeds each phase in turn, noting when it started in {@code phaseStarts}; with a kill, kills and
   * restarts the job in the first overload phase. Returns whether the newest checkpoint held
   * records in flight at the kill, or null without one. Stops early when the job process ended.
   */
  private Boolean runPhases(
      List<OverloadPlan.Phase> phases,
      long[] phaseStarts,
      ContinuousFeed feed,
      OverloadWatch watch,
      List<String> run,
      Path directory,
      Path checkpoints)
      throws Exception {
    Boolean killedWithRecordsInFlight = null;
    long started = clock.millis();
    for (OverloadPlan.Phase phase : phases) {
      phaseStarts[phase.number() - 1] = clock.millis();
      feed.changeRate(phase.rate());
      watch.enterPhase(phase.number());
      progress.line(
          String.format(
              "phase %d: %s, %d/s for %d s",
              phase.number(), phase.kind().key(), phase.rate(), phase.length().toSeconds()));
      if (settings.kill()
          && killedWithRecordsInFlight == null
          && phase.kind() == PhaseKind.OVERLOAD) {
        sleepUntil(started + phase.start().plus(phase.length().dividedBy(2)).toMillis());
        killedWithRecordsInFlight =
            killAndRestart(run, directory, checkpoints, started + phase.end().toMillis());
        killPhase = phase.number();
        watch.processRestarted();
      }
      sleepUntil(started + phase.end().toMillis());
      if (!process.isAlive()) {
        break;
      }
      if (phase.kind() == PhaseKind.RECOVERY) {
        started += awaitDrained(phase, watch);
      }
    }
    return killedWithRecordsInFlight;
  }

  /**
   * Lets a recovery phase that has not drained its backlog by its planned end run on at its rate
   * until it drains, for at most its planned length again (and the soak's timeout); returns how
   * much longer it ran. The plan sizes the phase for a job that reaches most of its nominal
   * capacity ({@link OverloadPlan}); on a busy machine the map's wait per record overshoots, so the
   * overload builds a larger backlog and the recovery drains it slower, and ending the phase on the
   * clock would report the machine's speed as a stall. Twice the planned length drains the backlog
   * of a job that reaches half its nominal capacity; a job slower than that, or one that stops
   * draining, still fails. The report gives each recovery's drain time.
   */
  private long awaitDrained(OverloadPlan.Phase phase, OverloadWatch watch) throws Exception {
    long drainedLag = drainedLag(settings.plan());
    if (watch.drainedIn(phase.number(), drainedLag)) {
      return 0;
    }
    Duration most =
        phase.length().compareTo(settings.timeout()) < 0 ? phase.length() : settings.timeout();
    long from = clock.millis();
    progress.line(
        String.format(
            "phase %d: lag %d above %d at its planned end; it goes on until the lag drains"
                + " (at most %d s)",
            phase.number(), watch.latestLag(), drainedLag, most.toSeconds()));
    try {
      Polling.until(
          most,
          Duration.ofSeconds(1),
          () ->
              watch.drainedIn(phase.number(), drainedLag) || !process.isAlive()
                  ? Optional.of(true)
                  : Optional.empty(),
          () -> new LabFailure("the lag did not drain"));
    } catch (LabFailure notDrained) {
      progress.line("phase " + phase.number() + ": the lag did not drain in twice its length");
    }
    return clock.millis() - from;
  }

  /** A recovery phase has drained its backlog once the lag is at most this. */
  private static long drainedLag(OverloadPlan plan) {
    return plan.recoveryRate() * DRAINED_SECONDS;
  }

  private void startProcess(List<String> run, Path directory) throws Exception {
    Path log = directory.resolve("job-" + (logs.size() + 1) + ".log");
    logs.add(log);
    process = JobProcess.start(run, JobHeap.jvmOptions(JobHeap.LIMIT_MEBIBYTES), null, log);
  }

  /**
   * Kills the job with SIGKILL (with unaligned checkpoints, once the newest completed checkpoint
   * holds records in flight, or at {@code latestMillis}) and starts it again; returns whether the
   * newest checkpoint held records in flight at the kill.
   */
  private boolean killAndRestart(
      List<String> run, Path directory, Path checkpoints, long latestMillis) throws Exception {
    boolean inFlight = newestCheckpointHoldsRecordsInFlight(checkpoints);
    if (settings.unaligned() && !inFlight) {
      try {
        inFlight =
            Polling.until(
                Duration.ofMillis(Math.max(0, latestMillis - clock.millis())),
                Duration.ofMillis(50),
                () ->
                    newestCheckpointHoldsRecordsInFlight(checkpoints)
                        ? Optional.of(true)
                        : Optional.empty(),
                () -> new LabFailure("no checkpoint with records in flight"));
      } catch (LabFailure none) {
        inFlight = false;
      }
    }
    notePeakMemory();
    process.kill();
    process.waitFor(settings.timeout().toMillis());
    progress.line(
        "SIGKILL to the job"
            + (inFlight ? " (the newest checkpoint holds records in flight)" : "")
            + "; restarting it from its latest checkpoint");
    startProcess(run, directory);
    return inFlight;
  }

  /** The peak resident memory disappears with the process: read it before the process ends. */
  private void notePeakMemory() {
    peakResidentMebibytes =
        Math.max(peakResidentMebibytes, ProcessMemory.peakResidentMebibytes(process.pid()));
  }

  private static boolean newestCheckpointHoldsRecordsInFlight(Path checkpoints) {
    try {
      return LabJob.latestCheckpoint(checkpoints).operators().values().stream()
          .flatMap(operator -> operator.subtasks().values().stream())
          .flatMap(subtask -> subtask.listStates().keySet().stream())
          .anyMatch(InFlightRecords::isInFlightState);
    } catch (RuntimeException e) {
      return false; // being written or replaced: look again
    }
  }

  /**
   * Waits until every one of the {@code records} fed is in the committed output and the output
   * settled, then reads it again a little later, so that a late duplicate counts; the verdict at
   * the timeout counts what is still missing as lost.
   */
  private OutputVerifier.Verdict settleAndVerify(String bootstrap, CellTopics topics, long records)
      throws Exception {
    OutputVerifier output = new OutputVerifier(bootstrap, topics.output());
    OutputVerifier.Verdict settled;
    try {
      settled =
          OutputSettling.awaitAll(
              process, output, records, bootstrap, topics, settings.timeout(), committed -> {});
    } catch (LabUserError ended) {
      progress.line(ended.getMessage());
      settled = output.read(true).verify(0, records);
    }
    Thread.sleep(LATE_DUPLICATE_WATCH.toMillis());
    OutputVerifier.Verdict later = output.read(true).verify(0, records);
    if (!later.equals(settled)) {
      progress.line(
          "the output changed after it settled: " + settled.line() + ", then " + later.line());
    }
    return later;
  }

  /** Why the job process did not survive the soak, or null when it did. */
  private String jobFailure() throws Exception {
    for (Path log : logs) {
      if (JobLog.ranOutOfMemory(log)) {
        return "OutOfMemoryError in the job process: its "
            + JobHeap.LIMIT_MEBIBYTES
            + " MiB heap did not hold; see "
            + log;
      }
    }
    if (!process.isAlive()) {
      return "the job process ended with exit code "
          + process.waitFor(0)
          + "; see "
          + process.log();
    }
    return null;
  }

  private void sleepUntil(long millis) throws InterruptedException {
    long rest = millis - clock.millis();
    if (rest > 0) {
      Thread.sleep(rest);
    }
  }

  private OverloadReport report(
      OverloadPlan plan,
      long[] phaseStarts,
      OverloadWatch.Observations observations,
      Boolean killedWithRecordsInFlight,
      String jobFailure,
      OutputVerifier.Verdict verdict) {
    long drainedLag = drainedLag(plan);
    List<PhaseFigures> phases = new ArrayList<>();
    List<OverloadPicture.PhaseWindow> windows = new ArrayList<>();
    for (OverloadPlan.Phase phase : plan.phases()) {
      long from = phaseStarts[phase.number() - 1];
      long to = phaseStarts[phase.number()] == 0 ? Long.MAX_VALUE : phaseStarts[phase.number()];
      List<OverloadWatch.Sample> looks =
          observations.samples().stream().filter(s -> s.phase() == phase.number()).toList();
      if (looks.isEmpty()) {
        continue;
      }
      windows.add(
          new OverloadPicture.PhaseWindow(
              phase.number(),
              phase.kind(),
              from,
              Math.min(to, looks.get(looks.size() - 1).atMillis())));
      List<JobApi.Checkpoint> completed =
          observations.checkpoints().stream()
              .filter(c -> c.completed() && c.triggerMillis() >= from && c.triggerMillis() < to)
              .toList();
      phases.add(PhaseFigures.of(phase, from, looks, completed, drainedLag));
    }
    List<Long> durations =
        observations.checkpoints().stream()
            .filter(JobApi.Checkpoint::completed)
            .map(JobApi.Checkpoint::durationMillis)
            .toList();
    int aborted =
        (int) observations.checkpoints().stream().filter(JobApi.Checkpoint::aborted).count();
    long maxAge =
        observations.samples().stream()
            .mapToLong(OverloadWatch.Sample::transactionAgeMillis)
            .max()
            .orElse(0);
    double peakMemory =
        observations.samples().stream()
            .mapToDouble(OverloadWatch.Sample::peakResidentMebibytes)
            .reduce(peakResidentMebibytes, Math::max);
    return new OverloadReport(
        settings,
        phases,
        durations,
        aborted,
        maxAge,
        TRANSACTION_TIMEOUT,
        peakMemory,
        JobHeap.LIMIT_MEBIBYTES,
        observations.restarts(),
        logs.size() - 1,
        killedWithRecordsInFlight,
        killPhase,
        jobFailure,
        verdict,
        new OverloadPicture(windows, observations.samples(), observations.checkpoints()));
  }
}

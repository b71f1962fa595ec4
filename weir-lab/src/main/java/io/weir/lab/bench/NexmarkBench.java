package io.weir.lab.bench;

import io.weir.kafka.monitor.TopicTransactions;
import io.weir.lab.LabFailure;
import io.weir.lab.LabUserError;
import io.weir.lab.Polling;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.kafka.EventTopicWriter;
import io.weir.nexmark.kafka.EventTopics;
import io.weir.nexmark.oracle.ResultRows;
import io.weir.nexmark.oracle.SqlOracle;
import io.weir.nexmark.queries.NexmarkQuery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.apache.kafka.common.config.TopicConfig;

/**
 * The Nexmark bench on a real broker: writes the generated events into one topic once, then runs a
 * query on Weir or on Flink, each run in a fresh JVM with the same heap, its own group, output
 * topic and checkpoint directory. A run is timed from the process's launch to its last committed
 * result row; its CPU time and peak memory are its process's; its rows are counted as a {@code
 * read_committed} reader sees them and, when {@link Settings#checkSql} holds, compared with the
 * query's SQL on the same events.
 *
 * <p>Paced ({@link Settings#pacedRatePerSecond}), a run's job starts unbounded on an empty topic of
 * its own, the events are written at the rate while it runs ({@link PacedRun}), and the bench kills
 * the job once its committed offsets cover all events and its results are read to their committed
 * end. Windows that only the end of a bounded input closes stay open: such queries commit fewer
 * rows than their SQL, so paced runs are not compared with it.
 */
public final class NexmarkBench {
  private static final String EVENTS = "nexmark-events";
  private static final String FLINK_MAIN = "io.weir.nexmark.flink.FlinkNexmarkJob";
  private static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

  /**
   * @param flinkClassPath the class path of the Flink process (the bench module and its jars)
   * @param checkSql whether each run's rows are compared with the query's SQL (DuckDB, in this
   *     JVM's memory: for small inputs)
   * @param jvmOptions added to both engines' processes, with a recording of each run when asked
   * @param pacedRatePerSecond when present, each run's job starts on an empty topic of its own and
   *     the events are written at this rate while it runs, to measure their latency; when empty,
   *     the events are loaded once before the runs
   */
  public record Settings(
      long events,
      int partitions,
      int parallelism,
      String stateBackend,
      Path directory,
      String flinkClassPath,
      boolean checkSql,
      JobJvmOptions jvmOptions,
      OptionalLong pacedRatePerSecond) {}

  /**
   * One run's figures. {@code lost}, {@code duplicated} and {@code matchesSql} are null when the
   * rows were not compared with SQL; the latency percentiles (milliseconds from an event's send
   * time to its offset's commit) are null when the run was not paced.
   */
  public record Run(
      NexmarkEngine engine,
      int repetition,
      double eventsPerSecond,
      double eventsPerCpuSecond,
      double peakResidentMebibytes,
      long rows,
      Long lost,
      Long duplicated,
      Boolean matchesSql,
      Double latencyP50Millis,
      Double latencyP99Millis) {}

  private final Settings settings;
  private final String bootstrap;
  private final Consumer<String> progress;
  private final GeneratorConfig generator = GeneratorConfig.defaults();

  public NexmarkBench(Settings settings, String bootstrap, Consumer<String> progress) {
    this.settings = settings;
    this.bootstrap = bootstrap;
    this.progress = progress;
  }

  /**
   * How many events a paced run writes but does not measure at {@code ratePerSecond}: the first of
   * each of the {@code partitions}, and those of the pace's last seconds ({@link PacedRun}).
   */
  public static long unmeasuredPacedEvents(int partitions, long ratePerSecond) {
    return partitions + PacedRun.unmeasuredAtEnd(ratePerSecond);
  }

  /**
   * Writes events {@code 0 .. events-1} into the events topic, with a progress line as it goes;
   * nothing when paced: each paced run writes them while its job runs.
   */
  public void load() {
    if (paced()) {
      return;
    }
    new EventTopics(bootstrap).createIfMissing(EVENTS, settings.partitions());
    // The writer reports the end once more when the count is a multiple of its step.
    AtomicLong reported = new AtomicLong(-1);
    new EventTopicWriter(bootstrap, EVENTS)
        .write(
            new EventGenerator(generator),
            settings.events(),
            written -> {
              if (reported.getAndSet(written) != written) {
                progress.accept(
                    String.format(
                        "loading events: %,d of %,d into %s", written, settings.events(), EVENTS));
              }
            });
  }

  /**
   * The query's complete SQL result on the loaded events, or null when not checking against SQL.
   */
  public ResultRows expected(NexmarkQuery<?> query) throws Exception {
    if (!settings.checkSql()) {
      return null;
    }
    try (SqlOracle oracle = SqlOracle.load(new EventGenerator(generator), settings.events())) {
      return oracle.rows(query.sql());
    }
  }

  /**
   * Runs {@code query} on {@code engine} in a fresh JVM, compared with {@code expected} when given;
   * empty when the engine has no version of the query.
   */
  public Optional<Run> run(
      NexmarkQuery<?> query, NexmarkEngine engine, int repetition, ResultRows expected)
      throws Exception {
    String name = "nexmark-" + query.name() + "-" + engine.key() + "-" + repetition;
    Topics.create(bootstrap, settings.partitions(), name);
    String events = paced() ? name + "-events" : EVENTS;
    if (paced()) {
      // Kept regardless of age, as the loaded topic is: the events' times lie in the past.
      Topics.create(
          bootstrap, settings.partitions(), Map.of(TopicConfig.RETENTION_MS_CONFIG, "-1"), events);
    }
    Path log = settings.directory().resolve(name + ".log");
    try (ResultWatcher watcher =
            new ResultWatcher(bootstrap, name, settings.partitions(), expected != null);
        BenchProcess process = start(query, engine, name, events, log)) {
      String label = query.name() + " on " + engine.key() + ", run " + repetition;
      Optional<PacedRun.Measured> measured =
          paced() ? pacedRun(name, events, process, label) : Optional.empty();
      if (measured.isEmpty() && !ended(engine, name, process, log)) {
        return Optional.empty();
      }
      if (paced() && measured.isEmpty()) {
        throw stoppedEarly(engine, name, log);
      }
      long endedNanos =
          measured.map(PacedRun.Measured::allCoveredNanos).orElseGet(System::nanoTime);
      if (!watcher.awaitCommittedEnd(bootstrap, Duration.ofSeconds(60))) {
        throw new LabUserError("Reading the results topic " + name + " did not reach its end");
      }
      // Paced, the run ends when the offsets cover every event: its last row may come long before.
      long last =
          watcher.lastArrivalNanos() != 0 && !paced() ? watcher.lastArrivalNanos() : endedNanos;
      double seconds = (last - process.launchedNanos()) / 1e9;
      Latency latency = measured.map(PacedRun.Measured::latency).orElse(null);
      Run run = measured(engine, repetition, seconds, process, watcher, expected, latency);
      progress.accept(line(query, run));
      return Optional.of(run);
    }
  }

  private boolean paced() {
    return settings.pacedRatePerSecond().isPresent();
  }

  /**
   * A paced run: events written while the unbounded job runs, until its offsets cover them all;
   * empty when the job's process ended before. The offsets are committed in the notification that
   * also commits the sinks' transactions, which may end just after: the results topic is then
   * awaited until no transaction on it is open; the caller reads the results to their committed end
   * and kills the job.
   */
  private Optional<PacedRun.Measured> pacedRun(
      String name, String events, BenchProcess process, String label) throws Exception {
    Optional<PacedRun.Measured> measured =
        new PacedRun(
                bootstrap,
                events,
                name,
                settings.partitions(),
                Math.toIntExact(settings.events()),
                settings.pacedRatePerSecond().getAsLong(),
                new EventGenerator(generator),
                progress)
            .drive(process, label);
    if (measured.isPresent()) {
      try {
        Polling.until(
            Duration.ofSeconds(60),
            Duration.ofMillis(100),
            () ->
                TopicTransactions.allDecided(bootstrap, name)
                    ? Optional.of(true)
                    : Optional.empty(),
            () -> new LabFailure("a transaction on the results topic " + name + " stays open"));
      } catch (LabFailure e) {
        throw new LabUserError(
            label + ": " + e.getMessage() + "; see the job's log " + process.log());
      }
    }
    return measured;
  }

  /**
   * Waits for a bounded run's process to end (a paced run's has ended already); false when the
   * engine has no version of the query.
   *
   * @throws LabUserError when it did not end in time or failed
   */
  private boolean ended(NexmarkEngine engine, String name, BenchProcess process, Path log)
      throws InterruptedException {
    Duration timeout = Duration.ofSeconds(120 + settings.events() / 5_000);
    if (!process.waitFor(timeout.toMillis())) {
      throw new LabUserError(
          "The "
              + engine.key()
              + " run "
              + name
              + " did not end within "
              + timeout.toSeconds()
              + " s; see its log "
              + log);
    }
    if (engine == NexmarkEngine.FLINK
        && process.exitCode() == NexmarkEngine.NOT_WRITTEN_FOR_FLINK) {
      return false;
    }
    if (process.exitCode() != 0) {
      throw new LabUserError(
          "The "
              + engine.key()
              + " run "
              + name
              + " failed (exit code "
              + process.exitCode()
              + "); see its log "
              + log);
    }
    return true;
  }

  private static LabUserError stoppedEarly(NexmarkEngine engine, String name, Path log) {
    return new LabUserError(
        "The "
            + engine.key()
            + " run "
            + name
            + " ended before its offsets covered the paced events; see its log "
            + log);
  }

  private Run measured(
      NexmarkEngine engine,
      int repetition,
      double seconds,
      BenchProcess process,
      ResultWatcher watcher,
      ResultRows expected,
      Latency latency) {
    Long lost = null;
    Long duplicated = null;
    Boolean matches = null;
    if (expected != null) {
      ResultRows actual = ResultRows.fromJsonObjects(expected.columns(), watcher.rows());
      RowDifference difference = RowDifference.of(expected.rows(), actual.rows());
      lost = difference.lost();
      duplicated = difference.duplicated();
      matches = difference.none();
    }
    return new Run(
        engine,
        repetition,
        settings.events() / seconds,
        settings.events() / process.cpuSeconds(),
        process.peakResidentMebibytes(),
        watcher.count(),
        lost,
        duplicated,
        matches,
        latency == null || Double.isNaN(latency.p50Millis()) ? null : latency.p50Millis(),
        latency == null || Double.isNaN(latency.p99Millis()) ? null : latency.p99Millis());
  }

  private BenchProcess start(
      NexmarkQuery<?> query, NexmarkEngine engine, String name, String events, Path log)
      throws Exception {
    Path checkpoints = settings.directory().resolve("checkpoints-" + name);
    List<String> job =
        new ArrayList<>(
            List.of(
                "--query",
                query.name(),
                "--bootstrap-servers",
                bootstrap,
                "--events-topic",
                events,
                "--results-topic",
                name,
                "--group",
                name,
                "--checkpoint-interval-ms",
                Long.toString(CHECKPOINT_INTERVAL.toMillis())));
    if (paced()) {
      job.add("--unbounded");
    }
    if (engine == NexmarkEngine.FLINK) {
      List<String> arguments = new ArrayList<>(List.of(FLINK_MAIN));
      arguments.addAll(job);
      arguments.addAll(
          List.of(
              "--parallelism",
              Integer.toString(settings.parallelism()),
              "--state-backend",
              settings.stateBackend(),
              "--checkpoint-dir",
              checkpoints.toString()));
      return BenchProcess.java(
          settings.flinkClassPath(), settings.jvmOptions().forRun(name), arguments, log);
    }
    List<String> runArgs =
        new ArrayList<>(
            List.of(
                "--no-web",
                "-p",
                Integer.toString(settings.parallelism()),
                "--state-backend",
                settings.stateBackend(),
                "--checkpoint-dir",
                checkpoints.toString(),
                "io.weir.nexmark.job.NexmarkJob"));
    runArgs.addAll(job);
    long launchedNanos = System.nanoTime();
    return BenchProcess.of(
        JobProcess.start(runArgs, settings.jvmOptions().forRun(name), null, log), launchedNanos);
  }

  private static String line(NexmarkQuery<?> query, Run run) {
    String check =
        run.matchesSql() == null
            ? ""
            : run.matchesSql()
                ? ", matches SQL"
                : ", differs from SQL (lost "
                    + run.lost()
                    + ", duplicated "
                    + run.duplicated()
                    + ")";
    String latency =
        run.latencyP50Millis() == null
            ? ""
            : String.format(
                ", latency p50 %.0f ms, p99 %.0f ms",
                run.latencyP50Millis(), run.latencyP99Millis());
    return String.format(
        "%s on %s, run %d: %,.0f events/s, %,.0f events/CPU-s, peak RSS %.0f MiB, %,d rows%s%s",
        query.name(),
        run.engine().key(),
        run.repetition(),
        run.eventsPerSecond(),
        run.eventsPerCpuSecond(),
        run.peakResidentMebibytes(),
        run.rows(),
        latency,
        check);
  }
}

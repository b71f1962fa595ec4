package io.weir.lab.bench;

import io.weir.lab.LabUserError;
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
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The Nexmark bench on a real broker: writes the generated events into one topic once, then runs a
 * query on Weir or on Flink, each run in a fresh JVM with the same heap, its own group, output
 * topic and checkpoint directory. A run is timed from the process's launch to its last committed
 * result row; its CPU time and peak memory are its process's; its rows are counted as a {@code
 * read_committed} reader sees them and, when {@link Settings#checkSql} holds, compared with the
 * query's SQL on the same events.
 */
public final class NexmarkBench {
  private static final String EVENTS = "nexmark-events";
  private static final String FLINK_MAIN = "io.weir.nexmark.flink.FlinkNexmarkJob";

  /**
   * @param flinkClassPath the class path of the Flink process (the bench module and its jars)
   * @param checkSql whether each run's rows are compared with the query's SQL (DuckDB, in this
   *     JVM's memory: for small inputs)
   * @param jvmOptions added to both engines' processes, with a recording of each run when asked
   */
  public record Settings(
      long events,
      int partitions,
      int parallelism,
      String stateBackend,
      Path directory,
      String flinkClassPath,
      boolean checkSql,
      JobJvmOptions jvmOptions) {}

  /**
   * One run's figures. {@code lost}, {@code duplicated} and {@code matchesSql} are null when the
   * rows were not compared with SQL.
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
      Boolean matchesSql) {}

  private final Settings settings;
  private final String bootstrap;
  private final Consumer<String> progress;
  private final GeneratorConfig generator = GeneratorConfig.defaults();

  public NexmarkBench(Settings settings, String bootstrap, Consumer<String> progress) {
    this.settings = settings;
    this.bootstrap = bootstrap;
    this.progress = progress;
  }

  /** Writes events {@code 0 .. events-1} into the events topic, with a progress line as it goes. */
  public void load() {
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
    Path log = settings.directory().resolve(name + ".log");
    try (ResultWatcher watcher =
            new ResultWatcher(bootstrap, name, settings.partitions(), expected != null);
        BenchProcess process = start(query, engine, name, log)) {
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
      long endedNanos = System.nanoTime();
      if (engine == NexmarkEngine.FLINK
          && process.exitCode() == NexmarkEngine.NOT_WRITTEN_FOR_FLINK) {
        return Optional.empty();
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
      if (!watcher.awaitCommittedEnd(bootstrap, Duration.ofSeconds(60))) {
        throw new LabUserError("Reading the results topic " + name + " did not reach its end");
      }
      long last = watcher.lastArrivalNanos() != 0 ? watcher.lastArrivalNanos() : endedNanos;
      double seconds = (last - process.launchedNanos()) / 1e9;
      Run run = measured(engine, repetition, seconds, process, watcher, expected);
      progress.accept(line(query, run));
      return Optional.of(run);
    }
  }

  private Run measured(
      NexmarkEngine engine,
      int repetition,
      double seconds,
      BenchProcess process,
      ResultWatcher watcher,
      ResultRows expected) {
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
        matches);
  }

  private BenchProcess start(NexmarkQuery<?> query, NexmarkEngine engine, String name, Path log)
      throws Exception {
    Path checkpoints = settings.directory().resolve("checkpoints-" + name);
    List<String> job =
        List.of(
            "--query",
            query.name(),
            "--bootstrap-servers",
            bootstrap,
            "--events-topic",
            EVENTS,
            "--results-topic",
            name,
            "--group",
            name,
            "--checkpoint-interval-ms",
            "1000");
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
    return String.format(
        "%s on %s, run %d: %,.0f events/s, %,.0f events/CPU-s, peak RSS %.0f MiB, %,d rows%s",
        query.name(),
        run.engine().key(),
        run.repetition(),
        run.eventsPerSecond(),
        run.eventsPerCpuSecond(),
        run.peakResidentMebibytes(),
        run.rows(),
        check);
  }
}

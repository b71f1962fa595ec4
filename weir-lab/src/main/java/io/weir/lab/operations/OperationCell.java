package io.weir.lab.operations;

import io.weir.examples.postgres.TotalsTables;
import io.weir.lab.CellTopics;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.JobOutput;
import io.weir.lab.LabFailure;
import io.weir.lab.LabProgress;
import io.weir.lab.LabSettings;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.SeedRecordsRead;
import io.weir.lab.TableOutput;
import io.weir.lab.Topics;
import io.weir.lab.process.CheckpointWatch;
import io.weir.lab.process.JobLog;
import io.weir.lab.process.LabJob;
import io.weir.lab.process.OutputSettling;
import io.weir.lab.process.RunningJob;
import io.weir.postgres.sink.PreparedTransaction;
import io.weir.postgres.sink.PreparedTransactions;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * One cell of the operations matrix: an operation's job with topics, group, transactional ids and
 * checkpoints of its own on a shared broker, and the steps operations are made of — start the job
 * (its own process), feed input, wait for a halt, wait until the output settles, count. Each
 * process logs into the cell's directory.
 */
final class OperationCell {
  static final int PARTITIONS = 4;
  private static final long CHECKPOINT_INTERVAL_MILLIS = 500;
  private static final String TRANSACTIONAL_ID_PREFIX = "--transactional-id-prefix";

  private final OperationJob job;
  private final Deployment deployment;
  private final String bootstrap;
  private final CellTopics topics;
  private final Path directory;
  private final LabSettings settings;
  private final LabProgress progress;
  private final String jdbcUrl;
  private int processes;

  OperationCell(
      OperationJob job,
      Deployment deployment,
      String bootstrap,
      CellTopics topics,
      Path directory,
      LabSettings settings,
      LabProgress progress,
      String jdbcUrl) {
    this.job = job;
    this.deployment = deployment;
    this.bootstrap = bootstrap;
    this.topics = topics;
    this.directory = directory;
    this.settings = settings;
    this.progress = progress;
    this.jdbcUrl = jdbcUrl;
  }

  /** Creates the cell's directory and its input and output topics. */
  void createTopics(int partitions, String... extraTopics) throws Exception {
    Files.createDirectories(directory);
    List<String> names = new ArrayList<>(List.of(topics.input(), topics.output()));
    names.addAll(List.of(extraTopics));
    Topics.create(bootstrap, partitions, names.toArray(String[]::new));
  }

  String bootstrap() {
    return bootstrap;
  }

  Deployment deployment() {
    return deployment;
  }

  CellTopics topics() {
    return topics;
  }

  LabSettings settings() {
    return settings;
  }

  Path directory() {
    return directory;
  }

  Path checkpoints() {
    return directory.resolve("checkpoints");
  }

  void progress(String line) {
    progress.line("  " + line);
  }

  /**
   * The arguments of {@code weir run}: the cell's checkpoint directory, {@code -p parallelism}
   * (none when 0), {@code startOptions} ({@code --fresh}, {@code -s PATH} or none), then the job
   * with the cell's topics, group and transactional ids, and {@code jobOptions}.
   */
  List<String> runArguments(int parallelism, List<String> startOptions, List<String> jobOptions) {
    List<String> arguments = new ArrayList<>(List.of("--checkpoint-dir", checkpoints().toString()));
    if (parallelism > 0) {
      arguments.addAll(List.of("-p", Integer.toString(parallelism)));
    }
    arguments.addAll(startOptions);
    arguments.addAll(jobArguments(jobOptions));
    return arguments;
  }

  /**
   * The job class and its arguments (for a local run or a cluster submission); a transactional id
   * prefix among {@code jobOptions} replaces the cell's.
   */
  List<String> jobArguments(List<String> jobOptions) {
    List<String> arguments = new ArrayList<>();
    arguments.add(job.jobClass());
    arguments.addAll(
        List.of(
            "--bootstrap", bootstrap,
            "--input-topic", topics.input(),
            "--output-topic", topics.output(),
            "--group", topics.group(),
            "--checkpoint-interval", Long.toString(CHECKPOINT_INTERVAL_MILLIS)));
    if (!jobOptions.contains(TRANSACTIONAL_ID_PREFIX)) {
      arguments.addAll(List.of(TRANSACTIONAL_ID_PREFIX, topics.transactionalIdPrefix()));
    }
    arguments.addAll(job.sinkArguments(topics, jdbcUrl));
    arguments.addAll(jobOptions);
    return arguments;
  }

  /**
   * Starts {@code weir run arguments} on the cell's deployment: a process of its own, or a fresh
   * cluster of its own; failpoints (or null) apply to each of its processes.
   */
  RunningJob start(List<String> runArguments, String failpoints) throws Exception {
    processes++;
    progress(
        deployment.key()
            + " job "
            + processes
            + ": "
            + String.join(" ", runArguments.subList(0, runArguments.indexOf(job.jobClass())))
            + (failpoints == null ? "" : " with failpoints " + failpoints));
    return deployment.start(
        runArguments, failpoints, directory, "job-" + processes, settings.timeout());
  }

  /** Feeds input records from {@code firstId} on, at the lab's rate, until stopped. */
  ContinuousFeed feed(long firstId) {
    return ContinuousFeed.start(bootstrap, topics.input(), settings.ratePerSecond(), firstId);
  }

  /** Sends input records {@code from} (inclusive) to {@code to} (exclusive), quickly. */
  void load(long from, long to) throws InterruptedException {
    new SeedInput(bootstrap, topics.input()).load(from, to, settings.ratePerSecond() * 4);
  }

  /** Waits until the failpoint halted the job; fails the cell if it ended otherwise. */
  void awaitHalt(RunningJob process, String failpoint) throws InterruptedException {
    int exit = process.awaitHalt(settings.timeout().toMillis());
    if (RunningJob.isHalt(exit)) {
      return;
    }
    if (exit == -1) {
      throw new LabFailure(
          "the job did not halt at "
              + failpoint
              + " within "
              + settings.timeout().toSeconds()
              + " s; see "
              + process.log());
    }
    throw JobLog.endedEarly("the job exited with " + exit + " before " + failpoint, process.log());
  }

  /** Waits until the running job committed every input record it will commit. */
  void awaitSettled(RunningJob process) throws Exception {
    awaitSettled(process, job.output(bootstrap, topics, jdbcUrl));
  }

  /** As {@link #awaitSettled(RunningJob)}, for one more output of the job. */
  void awaitSettled(RunningJob process, JobOutput output) throws Exception {
    try {
      OutputSettling.await(process.client(), output, bootstrap, topics, settings.timeout());
    } catch (LabFailure e) {
      if (!process.isAlive()) {
        throw JobLog.endedEarly("the job process exited before its output settled", process.log());
      }
      throw e;
    }
  }

  /** The newest completed checkpoint in the cell's checkpoint directory. */
  CompletedCheckpoint latestCheckpoint() {
    return LabJob.latestCheckpoint(checkpoints());
  }

  /**
   * Waits until the running job completed a checkpoint newer than {@code afterId} (-1: any); fails
   * the cell when the process ended first.
   */
  CompletedCheckpoint awaitCheckpointAfter(RunningJob process, long afterId) throws Exception {
    return CheckpointWatch.awaitAfter(
        checkpoints(), afterId, process::isAlive, process.log(), settings.timeout());
  }

  /** How often each id is in the committed ({@code read_committed}) output. */
  OutputVerifier.Reading committedOutput() {
    return new OutputVerifier(bootstrap, topics.output()).read(true);
  }

  /** How often each id is among the seed records of the input topic. */
  OutputVerifier.Reading input() {
    return SeedRecordsRead.ids(bootstrap, topics.input());
  }

  /**
   * Waits at most the cell's timeout for the job to fail as {@code expected} says, and judges it: a
   * non-zero exit, a one-line error the predicate accepts, and no committed output beyond {@code
   * committedBefore}. Returns null when the job is still running at the timeout.
   */
  OperationOutcome awaitLoudFailure(
      RunningJob process, LoudFailure expected, OutputVerifier.Reading committedBefore)
      throws InterruptedException {
    int exit = process.waitFor(settings.timeout().toMillis());
    if (exit == -1) {
      progress("the job did not fail within " + settings.timeout().toSeconds() + " s");
      return null;
    }
    OutputVerifier.Verdict pastIt = committedOutput().verifyAgainst(committedBefore);
    if (exit == 0) {
      return OperationOutcome.failed("the job ended with exit code 0", pastIt);
    }
    if (JobLog.unsupportedOption(process.log()).isPresent()) {
      throw JobLog.endedEarly("", process.log());
    }
    Optional<String> line = JobLog.errorLine(process.log());
    if (line.isEmpty() || !expected.accepts(line.get())) {
      return OperationOutcome.failed(
          "the job exited with "
              + exit
              + " but not with "
              + expected.description()
              + line.map(text -> ": " + text).orElse(" (no error line)")
              + "; see "
              + process.log(),
          pastIt);
    }
    if (pastIt.duplicated() > 0) {
      return OperationOutcome.failed(
          pastIt.duplicated() + " records were committed past the failure: " + line.get(), pastIt);
    }
    progress("failed as documented: " + line.get());
    return OperationOutcome.loudFailure(line.get(), pastIt);
  }

  /** The one-line error a loud failure must print. */
  interface LoudFailure {
    boolean accepts(String errorLine);

    /** What the line must say, for a cell's failure message. */
    String description();
  }

  /** Whether the cell's job writes through PostgreSQL's prepared transactions. */
  boolean writesToPostgres() {
    return job == OperationJob.POSTGRES_TOTALS;
  }

  /**
   * The ids of the transactions prepared and neither committed nor rolled back in the cell's
   * PostgreSQL database ({@code pg_prepared_xacts}), as any session sees them; none for a job that
   * writes to Kafka only.
   */
  Set<String> preparedTransactions() {
    Set<String> globalIds = new TreeSet<>();
    if (!writesToPostgres()) {
      return globalIds;
    }
    try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
      for (PreparedTransaction prepared : new PreparedTransactions(connection).list()) {
        globalIds.add(prepared.globalId());
      }
    } catch (SQLException e) {
      throw new LabFailure("Cannot list the prepared transactions at " + jdbcUrl + ": " + e);
    }
    return globalIds;
  }

  /** Those of {@code preparedAtHalt} that are still prepared (see {@link PreparedHalt}). */
  Set<String> stillPrepared(Set<String> preparedAtHalt) {
    Set<String> left = new TreeSet<>(preparedAtHalt);
    left.retainAll(preparedTransactions());
    return left;
  }

  /**
   * {@code verdict} as the cell's outcome, failed when {@code left} (transactions prepared at the
   * halt, still in {@code pg_prepared_xacts} after the restored job settled) is not empty: each
   * holds its row locks and blocks VACUUM for ever.
   */
  static OperationOutcome countedUnlessLeft(Set<String> left, OutputVerifier.Verdict verdict) {
    if (!left.isEmpty()) {
      return OperationOutcome.failed(
          left.size()
              + " of the transactions prepared at the halt are still in pg_prepared_xacts after"
              + " the restored job settled: "
              + left,
          verdict);
    }
    return OperationOutcome.counted(verdict);
  }

  /** The tables {@code tables}, which the cell's PostgreSQL job writes too, as an output. */
  JobOutput tablesOutput(TotalsTables tables) {
    return new TableOutput(jdbcUrl, tables);
  }

  /** The committed rows of {@code tables} counted against the input, as {@link #verdict} does. */
  OutputVerifier.Verdict tablesVerdict(TotalsTables tables) {
    try {
      return OperationJob.verifyTables(bootstrap, topics, jdbcUrl, tables);
    } catch (SQLException e) {
      throw new LabFailure("Cannot read the job's tables at " + jdbcUrl + ": " + e.getMessage());
    }
  }

  /** The committed output counted against the input, by the job's own measure. */
  OutputVerifier.Verdict verdict() {
    OutputVerifier.Verdict verdict;
    try {
      verdict = job.verify(bootstrap, topics, jdbcUrl);
    } catch (SQLException e) {
      throw new LabFailure("Cannot read the job's tables at " + jdbcUrl + ": " + e.getMessage());
    }
    progress(verdict.line());
    return verdict;
  }
}

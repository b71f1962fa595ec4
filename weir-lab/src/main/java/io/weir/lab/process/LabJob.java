package io.weir.lab.process;

import io.weir.examples.postgres.TotalsTables;
import io.weir.lab.CellTopics;
import io.weir.lab.CommitOrder;
import io.weir.lab.JobOutput;
import io.weir.lab.LabUserError;
import io.weir.lab.OutputVerifier;
import io.weir.lab.TableOutput;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.failpoint.FailpointNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The job the lab crashes: the seed job, or a user's job that keeps the lab's contract (see {@link
 * LabCommand}). Knows the {@code weir run} arguments that put the job in a {@link CommitOrder}.
 *
 * <p>How each order is made: <b>sink first</b> runs the seed job {@code --chained} (one task, its
 * chain notified tail first: {@code --notify-order reverse}); a user's job, whose plan the lab
 * cannot choose, also gets {@code source.offsets-commit.before=pause(ms)} so that, if it has
 * several tasks, the sink task commits while the source task waits. <b>Source first</b> runs the
 * seed job as two tasks with {@code sink.commit.before=pause(ms)}: the sink task waits, so the
 * source task's offset commit wins the race every time; a user's job also gets {@code
 * --notify-order forward} in case it is one chain.
 */
public final class LabJob {
  /**
   * Long enough for the other task's commit (milliseconds on a warm connection) to go first, also
   * on a loaded machine: at 700 ms a source's offset commit lost the race at load average 25.
   */
  public static final long ORDER_PAUSE_MILLIS = 1500;

  private static final String SEED_JOB = "io.weir.examples.SeedJob";

  private static final String POSTGRES_JOB = "io.weir.examples.postgres.PostgresTotalsJob";

  private final String jobClass;

  /** The jar that holds {@link #jobClass}, or null when the class is on the class path. */
  private final Path jar;

  private final List<String> jobArguments;
  private final boolean seed;
  private final JobRunner runner;
  private final String jdbcUrl;

  private LabJob(String jobClass, List<String> jobArguments, boolean seed, String jdbcUrl) {
    this(jobClass, null, jobArguments, seed, jdbcUrl, JobRunner.COMMAND_LINE);
  }

  private LabJob(
      String jobClass,
      Path jar,
      List<String> jobArguments,
      boolean seed,
      String jdbcUrl,
      JobRunner runner) {
    this.runner = runner;
    this.jobClass = jobClass;
    this.jar = jar;
    this.jobArguments = List.copyOf(jobArguments);
    this.seed = seed;
    this.jdbcUrl = jdbcUrl;
  }

  /**
   * The seed's input through a running aggregate per word into PostgreSQL, exactly once ({@code
   * PostgresTotalsJob}); its output is the cell's table of updates, named after the output topic.
   * Its plan has two tasks, so the commit order is forced like a user's job's.
   */
  public static LabJob postgres(String jdbcUrl) {
    return new LabJob(POSTGRES_JOB, List.of("--checkpoint-interval", "1000"), false, jdbcUrl);
  }

  public boolean writesToPostgres() {
    return jdbcUrl != null;
  }

  /** Where the cell's output is counted: the output topic, or the job's tables. */
  public JobOutput output(String bootstrap, CellTopics topics) {
    return writesToPostgres()
        ? new TableOutput(jdbcUrl, tables(topics))
        : new OutputVerifier(bootstrap, topics.output());
  }

  /** The tables of a cell's PostgreSQL job, named after its output topic. */
  public static TotalsTables tables(CellTopics topics) {
    return new TotalsTables(topics.output().replaceAll("[^A-Za-z0-9_]", "_"));
  }

  /** The seed job with checkpoints every second. */
  public static LabJob seed() {
    return new LabJob(SEED_JOB, List.of("--checkpoint-interval", "1000"), true, null);
  }

  /** A user's job: {@code jobArguments} are passed after the lab's own. */
  public static LabJob user(String jobClass, List<String> jobArguments) {
    return new LabJob(jobClass, jobArguments, false, null);
  }

  /**
   * A user's job in a jar, run as {@code weir run -c jobClass jar} does: its classes need not be on
   * any class path. {@code jobArguments} are passed after the lab's own.
   */
  public static LabJob userJar(Path jar, String jobClass, List<String> jobArguments) {
    return new LabJob(jobClass, jar, jobArguments, false, null, JobRunner.COMMAND_LINE);
  }

  /** This job with {@code arguments} passed after its own. */
  public LabJob withArguments(List<String> arguments) {
    List<String> all = new ArrayList<>(jobArguments);
    all.addAll(arguments);
    return new LabJob(jobClass, jar, all, seed, jdbcUrl, runner);
  }

  /** This job, its processes started by {@code runner} (the command line unless said). */
  public LabJob runBy(JobRunner runner) {
    return new LabJob(jobClass, jar, jobArguments, seed, jdbcUrl, runner);
  }

  public JobRunner runner() {
    return runner;
  }

  public String describe() {
    if (writesToPostgres()) {
      return "the running-totals job into PostgreSQL at " + jdbcUrl;
    }
    if (jar != null) {
      return "job " + jobClass + " of " + jar;
    }
    return seed ? "the seed job" : "job " + jobClass;
  }

  /**
   * The arguments of {@code weir run}: checkpoint directory, notify order, {@code startOptions}
   * (how to start: {@code --fresh}, {@code -s PATH}, ... or none), the job and its arguments.
   */
  public List<String> runArguments(
      CommitOrder order,
      String bootstrap,
      CellTopics topics,
      Path checkpoints,
      List<String> startOptions) {
    List<String> arguments = new ArrayList<>();
    arguments.addAll(List.of("--checkpoint-dir", checkpoints.toString()));
    boolean forward = !seed && order == CommitOrder.SOURCE_FIRST;
    arguments.addAll(List.of("--notify-order", forward ? "FORWARD" : "REVERSE"));
    arguments.addAll(startOptions);
    if (jar != null) {
      arguments.addAll(List.of("-c", jobClass, jar.toString()));
    } else {
      arguments.add(jobClass);
    }
    arguments.addAll(
        List.of(
            "--bootstrap", bootstrap,
            "--input-topic", topics.input(),
            "--output-topic", topics.output(),
            "--group", topics.group()));
    if (writesToPostgres()) {
      arguments.addAll(List.of("--jdbc-url", jdbcUrl, "--table", tables(topics).prefix()));
    }
    if (seed) {
      arguments.addAll(List.of("--transactional-id-prefix", topics.transactionalIdPrefix()));
      if (order == CommitOrder.SINK_FIRST) {
        arguments.add("--chained");
      }
    }
    arguments.addAll(jobArguments);
    return arguments;
  }

  /** The failpoints that fix the commit order, or null when the plan fixes it already. */
  public String orderFailpoints(CommitOrder order) {
    if (order == CommitOrder.SOURCE_FIRST) {
      return FailpointNames.SINK_COMMIT_BEFORE + "=pause(" + ORDER_PAUSE_MILLIS + ")";
    }
    return seed
        ? null
        : FailpointNames.SOURCE_OFFSETS_COMMIT_BEFORE + "=pause(" + ORDER_PAUSE_MILLIS + ")";
  }

  /** The newest completed checkpoint the job wrote under {@code checkpoints}. */
  public static CompletedCheckpoint latestCheckpoint(Path checkpoints) {
    try (Stream<Path> jobs = Files.list(checkpoints)) {
      List<Path> jobDirectories = jobs.filter(Files::isDirectory).toList();
      if (jobDirectories.size() != 1) {
        throw new LabUserError(
            "Expected the checkpoints of one job in " + checkpoints + ", found " + jobDirectories);
      }
      return CheckpointLoader.load(jobDirectories.get(0));
    } catch (IOException e) {
      throw new LabUserError("No completed checkpoint in " + checkpoints + ": " + e.getMessage());
    }
  }
}

package io.weir.cli;

import ch.qos.logback.classic.Level;
import io.weir.api.checkpoint.NotifyOrder;
import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobExecutor;
import io.weir.api.datastream.JobResult;
import io.weir.api.state.StateBackend;
import io.weir.cli.cluster.ClusterCommand;
import io.weir.cli.cluster.ClusterOptions;
import io.weir.cli.cluster.ClusterSubmit;
import io.weir.cli.error.DataLossExit;
import io.weir.cli.error.UserError;
import io.weir.cli.web.Dashboard;
import io.weir.cli.web.DashboardBesideJob;
import io.weir.cli.web.WebOptions;
import io.weir.cluster.rpc.JobJar;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.lab.process.JobJarFile;
import io.weir.lab.process.JobLauncher;
import io.weir.runtime.execution.LocalJobExecutor;
import io.weir.runtime.execution.LocalJobs;
import io.weir.runtime.startup.StartupPhases;
import io.weir.web.WebServerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code weir run}: submits a job to a cluster when one is named ({@code --jobmanager}) or was
 * started here with {@code weir cluster start}; otherwise runs it in this process (the job manager
 * and task manager roles).
 */
@Command(
    name = "run",
    description =
        "Run a job. Without -s, a job with a checkpoint directory resumes from the newest of its completed checkpoints and savepoints.")
public final class RunCommand implements Runnable {
  @Option(
      names = {"-p", "--parallelism"},
      description = "Default parallelism of the job.")
  Integer parallelism;

  @Option(names = "--checkpoint-dir", description = "Where the job's checkpoints are kept.")
  Path checkpointDirectory;

  @Option(
      names = "--notify-order",
      description = "Order of checkpoint notifications in a chain: ${COMPLETION-CANDIDATES}.")
  NotifyOrder notifyOrder;

  @ArgGroup(exclusive = true)
  Start start;

  /** Where the job starts from; at most one. */
  static final class Start {
    @Option(
        names = {"-s", "--from-checkpoint"},
        description = "Restore from this checkpoint or savepoint directory.")
    Path checkpoint;

    @Option(
        names = "--from-group-offsets",
        description =
            "Start without state: sources read from their consumer group's offsets, moved"
                + " forward past the transactions the newest checkpoint's sinks commit first.")
    boolean groupOffsets;

    @Option(
        names = "--fresh",
        description =
            "Start without state; the newest checkpoint's pending transactions are still"
                + " committed, and the sources start past them.")
    boolean fresh;
  }

  @Option(
      names = "--allow-fallback",
      description =
          "Resume from an older checkpoint when the newest is broken, although its"
              + " two-phase-commit sinks may have committed output that the older one commits again.")
  boolean allowFallback;

  @Mixin ClusterOptions cluster = new ClusterOptions();

  @Mixin WebOptions web = new WebOptions();

  @Option(
      names = "--accept-data-loss",
      description =
          "Go on when recovery proves that a transaction of the restored checkpoint was aborted (its records are lost); without it the job fails naming them.")
  boolean acceptDataLoss;

  @Option(
      names = "--state-backend",
      paramLabel = "NAME",
      description =
          "Where keyed state lives: heap (default) or rocksdb (state larger than memory,"
              + " incremental checkpoints); on a cluster, every task manager builds it.")
  String stateBackend;

  @Option(
      names = "--unaligned",
      description =
          "Exactly-once checkpoints whose barriers overtake queued records; the records in flight"
              + " are stored with the checkpoint and replayed on restore.")
  boolean unaligned;

  @Option(
      names = "--aligned-timeout",
      paramLabel = "DURATION",
      description =
          "With --unaligned: align barriers first, and switch a checkpoint to unaligned once its"
              + " alignment has waited this long (e.g. PT1S).")
  Duration alignedTimeout;

  @Option(
      names = "--in-flight-target",
      paramLabel = "DURATION",
      description =
          "How much of a task's throughput its input may hold queued: each channel's batches adapt"
              + " to it (default PT1S; PT0S keeps full batches).")
  Duration inFlightTarget;

  @Option(names = "--detached", description = "On a cluster: return once submitted.")
  boolean detached;

  @Option(
      names = "--local",
      description = "Run in this process even when 'weir cluster start' started a cluster.")
  boolean local;

  @Option(
      names = "--verbose",
      description =
          "Print the start-up phases (with the milliseconds since the JVM started) and the stack"
              + " trace of an error.")
  boolean verbose;

  @Parameters(index = "0", paramLabel = "JOB", description = "The job's main class or jar.")
  String job;

  @Option(
      names = {"-c", "--class"},
      paramLabel = "CLASS",
      description = "With a jar: the job class to run (default: the jar's Main-Class).")
  String jobClass;

  @Parameters(index = "1..*", paramLabel = "ARGS", description = "The job's own arguments.")
  List<String> args = new ArrayList<>();

  @Override
  public void run() {
    if (verbose) {
      ((ch.qos.logback.classic.Logger) LoggerFactory.getLogger(StartupPhases.LOGGER))
          .setLevel(Level.INFO);
    }
    StartupPhases.reached("command line parsed");
    if (jobClass != null && !JobJarFile.isJar(job)) {
      throw new UserError("-c names the job class of a jar, but " + job + " is not a jar");
    }
    if (cluster.isGiven() && local) {
      throw new UserError("--local runs the job in this process; it cannot go with --jobmanager");
    }
    if (stateBackend != null) {
      stateBackendNamed(stateBackend);
    }
    if (alignedTimeout != null && !unaligned) {
      throw new UserError("--aligned-timeout switches to unaligned checkpoints; add --unaligned");
    }
    if (inFlightTarget != null && inFlightTarget.isNegative()) {
      throw new UserError("--in-flight-target must not be negative, got " + inFlightTarget);
    }
    // Asked only when needed: it looks for a running job manager.
    if (inFlightTarget != null
        && (cluster.isGiven() || !local && ClusterCommand.runningJobManager(cluster).isPresent())) {
      throw new UserError(
          "--in-flight-target applies to local runs; on a cluster, call inFlightDataTarget(d) in"
              + " the job");
    }
    if (cluster.isGiven()) {
      submitToCluster();
      return;
    }
    if (!local && ClusterCommand.runningJobManager(cluster).isPresent()) {
      System.out.println(
          "submitting to the cluster started by 'weir cluster start' (job manager at "
              + cluster.address()
              + "); --local runs the job in this process");
      submitToCluster();
      return;
    }
    LocalJobs jobs = new LocalJobs();
    DashboardBesideJob dashboard =
        Dashboard.startBesideJob(
            web, web.toServerOptions(WebServerOptions.DEFAULT_HOST, ""), jobs, jobs, System.out);
    JobExecutor executor =
        plan -> {
          JobResult result = new LocalJobExecutor(jobs).execute(plan);
          System.out.printf(
              "job '%s' %s in %.1f s: %d checkpoints, %d restarts%s%n",
              result.jobName(),
              switch (result.end()) {
                case FINISHED -> "finished";
                case STOPPED_WITH_SAVEPOINT -> "stopped with a savepoint";
                case CANCELED_WITH_SAVEPOINT -> "cancelled with a savepoint";
              },
              result.duration().toMillis() / 1000.0,
              result.completedCheckpoints(),
              result.restarts(),
              result.deadLetterRecords() > 0 ? ", dead-letters=" + result.deadLetterRecords() : "");
          DataLossExit.failIfLost(result.jobName(), result.acceptedDataLoss());
          return result;
        };
    try {
      JobLauncher.launch(job, jobClass, args.toArray(String[]::new), executor, this::override);
    } catch (JobExecutionException e) {
      throw new UserError(e.getMessage(), e);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new UserError(e.getMessage(), e);
    } finally {
      if (dashboard != null) {
        dashboard.close();
      }
    }
  }

  private static StateBackend stateBackendNamed(String name) {
    try {
      return StateBackend.named(name);
    } catch (IllegalArgumentException e) {
      throw new UserError("--state-backend: " + e.getMessage());
    }
  }

  /** Ships a jar's bytes with the submission; a class must be on the cluster's class path. */
  private void submitToCluster() {
    if (!JobJarFile.isJar(job)) {
      ClusterSubmit.submit(cluster, submission(job, null), detached);
      return;
    }
    JobJarFile jar = JobJarFile.open(job, jobClass);
    byte[] bytes = jar.bytes();
    JobJar shipped = JobJar.of(jar.path().getFileName().toString(), bytes);
    ClusterSubmit.submit(cluster, submission(jar.jobClass(), shipped), bytes, detached);
  }

  private JobSubmission submission(String className, JobJar jar) {
    return new JobSubmission(
        className,
        args,
        parallelism,
        checkpointDirectory == null ? null : checkpointDirectory.toAbsolutePath().toString(),
        start == null || start.checkpoint == null
            ? null
            : start.checkpoint.toAbsolutePath().toString(),
        start != null && (start.fresh || start.groupOffsets),
        jar,
        allowFallback,
        acceptDataLoss,
        stateBackend,
        unaligned,
        alignedTimeout);
  }

  private void override(JobConfig config) {
    if (parallelism != null) {
      config.parallelism(parallelism);
    }
    if (checkpointDirectory != null) {
      config.checkpointDirectory(checkpointDirectory);
    }
    if (notifyOrder != null) {
      config.notifyOrder(notifyOrder);
    }
    config.allowFallback(allowFallback);
    if (start != null) {
      config.restorePath(start.checkpoint);
      config.fresh(start.fresh || start.groupOffsets);
    }
    if (acceptDataLoss) {
      config.acceptDataLoss(true);
    }
    if (stateBackend != null) {
      config.stateBackend(StateBackend.named(stateBackend));
    }
    if (unaligned) {
      config.enableUnalignedCheckpoints();
    }
    if (alignedTimeout != null) {
      config.alignedCheckpointTimeout(alignedTimeout);
    }
    if (inFlightTarget != null) {
      config.inFlightDataTarget(inFlightTarget);
    }
    config.progressInterval(Duration.ofSeconds(2));
  }
}

package io.weir.cli.cluster;

import io.weir.cli.control.LocalRunControl;
import io.weir.cli.control.LocalRunOption;
import io.weir.cli.error.UserError;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import java.time.Instant;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that ask a job manager about its jobs. */
public final class JobCommands {
  private JobCommands() {}

  static String line(JobStatus job) {
    return String.format(
        "%-12s  %-20s  %-10s  %-24s  %s",
        job.jobId(),
        job.jobName(),
        job.state(),
        Instant.ofEpochMilli(job.startMillis()),
        job.lastCheckpointId() < 0 ? "-" : "chk-" + job.lastCheckpointId());
  }

  /** {@code weir list}. */
  @Command(name = "list", description = "List the cluster's jobs.")
  public static final class ListCommand implements Runnable {
    @Mixin ClusterOptions cluster;

    @Override
    public void run() {
      List<JobStatus> jobs = ClusterRequest.run(cluster, client -> client.list());
      System.out.printf(
          "%-12s  %-20s  %-10s  %-24s  %s%n", "ID", "NAME", "STATE", "STARTED", "CHECKPOINT");
      jobs.forEach(job -> System.out.println(line(job)));
    }
  }

  /** {@code weir stop}. */
  @Command(
      name = "stop",
      description =
          "Stop a job with a savepoint: its sources stop, the savepoint completes, every sink"
              + " commits, then the job ends FINISHED. On a cluster, or on a local run (--web).")
  public static final class StopCommand implements Runnable {
    @Mixin ClusterOptions cluster;

    @Mixin LocalRunOption localRun;

    @Option(
        names = "--savepoint",
        paramLabel = "DIR",
        required = true,
        description = "Where the savepoint goes (a directory that holds none yet).")
    String savepoint;

    @Parameters(index = "0", paramLabel = "ID")
    String jobId;

    @Override
    public void run() {
      String path =
          localRun(cluster, localRun)
              ? new LocalRunControl(localRun).stopWithSavepoint(jobId, savepoint)
              : ClusterRequest.run(
                  cluster, client -> client.stopWithSavepoint(jobId, absolute(savepoint)));
      System.out.println("stopped job " + jobId + " with savepoint " + path);
    }
  }

  /** {@code weir cancel}. */
  @Command(
      name = "cancel",
      description =
          "Cancel a job; with --savepoint, once the savepoint completed and every sink committed."
              + " On a cluster, or on a local run (--web).")
  public static final class CancelCommand implements Runnable {
    @Mixin ClusterOptions cluster;

    @Mixin LocalRunOption localRun;

    @Option(
        names = "--savepoint",
        paramLabel = "DIR",
        description =
            "Stop with a savepoint there first (the job ends CANCELED, with nothing pending).")
    String savepoint;

    @Parameters(index = "0", paramLabel = "ID")
    String jobId;

    @Override
    public void run() {
      String path =
          localRun(cluster, localRun)
              ? new LocalRunControl(localRun).cancel(jobId, savepoint)
              : ClusterRequest.run(cluster, client -> client.cancel(jobId, absolute(savepoint)));
      System.out.println(
          "cancelled job " + jobId + (path == null ? "" : " after savepoint " + path));
    }
  }

  /** {@code weir savepoint}. */
  @Command(name = "savepoint", description = "Take a savepoint of a running job.")
  public static final class SavepointCommand implements Runnable {
    @Mixin ClusterOptions cluster;

    @Parameters(index = "0", paramLabel = "ID")
    String jobId;

    @Parameters(index = "1", paramLabel = "DIR")
    String directory;

    @Override
    public void run() {
      String path =
          ClusterRequest.run(cluster, client -> client.savepoint(jobId, absolute(directory)));
      System.out.println("savepoint of job " + jobId + " at " + path);
    }
  }

  /** {@code weir checkpoints}. */
  @Command(
      name = "checkpoints",
      description = "A job's checkpoint history, newest first: status, duration, size, acks.")
  public static final class CheckpointsCommand implements Runnable {
    @Mixin ClusterOptions cluster;

    @Parameters(index = "0", paramLabel = "ID")
    String jobId;

    @Override
    public void run() {
      ClusterRequest.run(cluster, client -> client.checkpoints(jobId)).forEach(System.out::println);
    }
  }

  /** Whether the command goes to a local run's REST API rather than to a cluster. */
  private static boolean localRun(ClusterOptions cluster, LocalRunOption localRun) {
    if (localRun.isGiven() && cluster.isGiven()) {
      throw new UserError("--web names a local run; it cannot go with --jobmanager or --ha");
    }
    return localRun.isGiven();
  }

  static String absolute(String path) {
    return path == null ? null : java.nio.file.Path.of(path).toAbsolutePath().toString();
  }
}

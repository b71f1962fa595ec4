package io.weir.lab.process;

import io.weir.lab.LabFailure;
import io.weir.runtime.failpoint.FailpointConfiguration;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A job the lab started, on the local path (one {@code weir run} process) or on a cluster of its
 * own (a job manager, a task manager and the client that submitted the job and waits for it). The
 * client's exit code and log are the job's, as a user sees them; a failpoint halt may end any of
 * the processes. Closing it kills every process that is still alive (SIGKILL).
 */
public final class RunningJob implements AutoCloseable {
  /** How often the lab looks at the processes: none of them tells the lab anything. */
  private static final long POLL_MILLIS = 100;

  private final JobProcess client;
  private final Optional<LabCluster> cluster;

  private RunningJob(JobProcess client, Optional<LabCluster> cluster) {
    this.client = client;
    this.cluster = cluster;
  }

  /**
   * A job the lab watches through one process: a local job process, or a client of a cluster the
   * caller owns.
   */
  public static RunningJob process(JobProcess process) {
    return new RunningJob(process, Optional.empty());
  }

  public static RunningJob onCluster(LabCluster cluster, JobProcess client) {
    return new RunningJob(client, Optional.of(cluster));
  }

  /** The process whose exit code and log are the job's: the job process, or the cluster client. */
  public JobProcess client() {
    return client;
  }

  public Path log() {
    return client.log();
  }

  /**
   * The logs of every process of the job: the client's and, on a cluster, the job manager's and the
   * task manager's, where the cluster logs what its attempts did.
   */
  public List<Path> logs() {
    List<Path> logs = new ArrayList<>(List.of(client.log()));
    cluster.ifPresent(processes -> logs.addAll(processes.logs()));
    return logs;
  }

  /** Whether the client and, on a cluster, the job manager and task manager are all alive. */
  public boolean isAlive() {
    return client.isAlive() && cluster.map(LabCluster::allAlive).orElse(true);
  }

  /** Waits for the client to end; returns its exit code, or -1 after {@code millis}. */
  public int waitFor(long millis) throws InterruptedException {
    return client.waitFor(millis);
  }

  /**
   * Waits until a failpoint halted a process of the job, and returns the halt's exit code; else the
   * client's exit code when it ended first, or -1 after {@code millis}. On a cluster, a halt of the
   * job manager or the task manager is followed by SIGKILL of the rest of the cluster: the crash
   * takes the whole deployment down.
   */
  public int awaitHalt(long millis) throws InterruptedException {
    if (cluster.isEmpty()) {
      return client.waitFor(millis);
    }
    long deadline = System.currentTimeMillis() + millis;
    while (System.currentTimeMillis() < deadline) {
      Optional<Integer> halted = cluster.get().haltExit();
      if (halted.isPresent()) {
        close();
        return halted.get();
      }
      if (!client.isAlive()) {
        // The client may notice the halt before the lab does: look once more.
        halted = cluster.get().haltExit();
        close();
        return halted.orElse(client.waitFor(0));
      }
      Thread.sleep(POLL_MILLIS);
    }
    return -1;
  }

  /** Whether {@code exit} is a failpoint's halt. */
  public static boolean isHalt(int exit) {
    return exit == FailpointConfiguration.DEFAULT_HALT_EXIT_CODE;
  }

  /** {@code weir <arguments> --jobmanager ADDRESS} against the job's cluster. */
  String clusterCommand(List<String> arguments) throws Exception {
    return cluster
        .orElseThrow(() -> new LabFailure("a local job has no cluster to send commands to"))
        .command(arguments);
  }

  @Override
  public void close() throws InterruptedException {
    try {
      client.close();
    } finally {
      if (cluster.isPresent()) {
        cluster.get().close();
      }
    }
  }
}

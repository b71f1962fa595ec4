package io.weir.lab.operations;

import io.weir.lab.process.JobProcess;
import io.weir.lab.process.LabCluster;
import io.weir.lab.process.RunningJob;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Where an operation cell runs its job: in a process of its own ({@code weir run}, the local path)
 * or on a standalone cluster of its own ({@code weir jobmanager}, {@code weir taskmanager} and a
 * {@code weir run --jobmanager} client, the cluster path). Each start of the job is a fresh
 * deployment, so a crash takes down everything the job ran on, as a kill -9 of the machine would.
 */
public enum Deployment {
  LOCAL("local"),
  CLUSTER("cluster");

  /** Slots of a cell's task manager: enough for the largest parallelism a cell asks for. */
  private static final int CLUSTER_SLOTS = 4;

  private final String key;

  Deployment(String key) {
    this.key = key;
  }

  /** The name in the table, the JSON and {@code --deployments}. */
  String key() {
    return key;
  }

  /**
   * Starts the job with {@code runArguments} (those of {@code weir run} without the command);
   * {@code failpoints} (or null) apply to every process of the deployment, and {@code name} names
   * its logs in {@code directory}.
   */
  RunningJob start(
      List<String> runArguments,
      String failpoints,
      Path directory,
      String name,
      Duration startTimeout)
      throws Exception {
    Path clientLog = directory.resolve(name + ".log");
    return switch (this) {
      case LOCAL -> RunningJob.process(JobProcess.start(runArguments, failpoints, clientLog));
      case CLUSTER -> clustered(runArguments, failpoints, directory.resolve(name), startTimeout);
    };
  }

  private static RunningJob clustered(
      List<String> runArguments, String failpoints, Path clusterDirectory, Duration startTimeout)
      throws Exception {
    LabCluster cluster =
        LabCluster.start(clusterDirectory, CLUSTER_SLOTS, startTimeout, failpoints);
    try {
      return RunningJob.onCluster(
          cluster, cluster.submit(runArguments, clusterDirectory.resolve("client.log")));
    } catch (IOException | RuntimeException e) {
      cluster.close();
      throw e;
    }
  }

  public static Deployment ofKey(String key) {
    for (Deployment deployment : values()) {
      if (deployment.key.equals(key)) {
        return deployment;
      }
    }
    throw new IllegalArgumentException(key);
  }
}

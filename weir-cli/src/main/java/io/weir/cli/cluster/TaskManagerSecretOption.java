package io.weir.cli.cluster;

import picocli.CommandLine.Option;

/**
 * The task managers' secret, for the commands that start or run job managers and task managers.
 * Apart from the cluster's secret so that a command-line user cannot register as a task manager.
 */
public final class TaskManagerSecretOption {
  @Option(
      names = "--taskmanager-secret",
      description =
          "The task managers' own secret (default: taskmanager.secret, else the cluster's secret;"
              + " required to be different off loopback).")
  String secret;

  /** The secret given, else {@code taskmanager.secret}, else {@code clusterSecret}. */
  String resolve(ClusterSettings settings, String clusterSecret) {
    if (secret != null) {
      return secret;
    }
    return settings.get("taskmanager.secret", clusterSecret);
  }
}

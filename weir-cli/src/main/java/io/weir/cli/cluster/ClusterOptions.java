package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.ZooKeeperAddress;
import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.HostAndPort;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** The options of every command that talks to a job manager. */
public final class ClusterOptions {
  @Option(
      names = "--jobmanager",
      paramLabel = "HOST:PORT",
      description = "The job manager (default: jobmanager.host/port of conf/weir.yaml).")
  String jobManager;

  @Option(
      names = "--secret",
      description = "The cluster's shared secret (default: cluster.secret).")
  String secret;

  @Option(names = "--conf", description = "The cluster configuration (default: conf/weir.yaml).")
  Path configuration;

  @Option(
      names = "--ha",
      paramLabel = "URL",
      description =
          "Find the leading job manager in ZooKeeper, e.g. zookeeper://127.0.0.1:2181 (default:"
              + " ha.url).")
  String highAvailability;

  /** The ZooKeeper of a highly available cluster, if this is one. */
  public Optional<ZooKeeperAddress> highAvailability() {
    return ClusterHighAvailability.address(highAvailability, ClusterSettings.load(configuration));
  }

  /** True when the user named a cluster on the command line: a job manager, or {@code --ha}. */
  public boolean isGiven() {
    return jobManager != null || highAvailability != null;
  }

  /**
   * The job manager to talk to: the one named, else the leader ZooKeeper names (waiting for one
   * while a standby takes over), else the configured one.
   */
  public HostAndPort address() {
    Optional<ZooKeeperAddress> zooKeeperAddress = highAvailability();
    if (jobManager == null && zooKeeperAddress.isPresent()) {
      ClusterSettings settings = ClusterSettings.load(configuration);
      try (ClusterZooKeeper zooKeeper =
          ClusterHighAvailability.connect(zooKeeperAddress.get(), settings)) {
        return ClusterHighAvailability.leader(zooKeeper, 0, ClusterHighAvailability.LEADER_WAIT)
            .address();
      }
    }
    return configuredAddress();
  }

  /** The job manager named on the command line or in the configuration. */
  HostAndPort configuredAddress() {
    if (jobManager != null) {
      try {
        return HostAndPort.parse("--jobmanager", jobManager);
      } catch (IllegalArgumentException e) {
        throw new UserError(e.getMessage());
      }
    }
    ClusterSettings settings = ClusterSettings.load(configuration);
    return new HostAndPort(
        settings.get("jobmanager.host", "127.0.0.1"),
        settings.getInt("jobmanager.port", JobManagerCommand.DEFAULT_PORT));
  }

  public String secret() {
    return secret != null ? secret : ClusterSettings.load(configuration).get("cluster.secret", "");
  }

  public ClusterTls tls() {
    return ClusterSettings.load(configuration).tls();
  }

  public ClusterClient client() {
    return new ClusterClient(address(), secret(), tls());
  }
}

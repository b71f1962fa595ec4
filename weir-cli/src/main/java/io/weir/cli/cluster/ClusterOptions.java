package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.HostAndPort;
import java.nio.file.Path;
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

  /** True when the user named a job manager on the command line. */
  public boolean isGiven() {
    return jobManager != null;
  }

  public HostAndPort address() {
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

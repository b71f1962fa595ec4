package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cli.web.Dashboard;
import io.weir.cli.web.WebOptions;
import io.weir.cluster.ha.JobManagerHighAvailability;
import io.weir.cluster.ha.ZooKeeperHighAvailability;
import io.weir.cluster.jobmanager.DashboardToken;
import io.weir.cluster.jobmanager.JobManager;
import io.weir.cluster.jobmanager.JobManagerOptions;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.web.WebServer;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code weir jobmanager}: runs a job manager in this process until it is killed. */
@Command(name = "jobmanager", description = "Run a job manager (the cluster's coordinator).")
public final class JobManagerCommand implements Runnable {
  static final int DEFAULT_PORT = 6123;

  @Option(names = "--host", description = "Address to bind (default 127.0.0.1).")
  String host;

  @Option(names = "--port", description = "Control port (default 6123).")
  Integer port;

  @Option(names = "--secret", description = "Shared secret; required to bind a non-loopback host.")
  String secret;

  @Option(names = "--heartbeat-timeout-ms", description = "Declare a silent task manager lost.")
  Integer heartbeatTimeoutMillis;

  @Option(names = "--checkpoint-dir", description = "Checkpoints of jobs that name none.")
  Path checkpointDirectory;

  @Option(names = "--conf", description = "The cluster configuration (default: conf/weir.yaml).")
  Path configuration;

  @Option(
      names = "--ha",
      paramLabel = "URL",
      description =
          "Run for leadership among the job managers of this ZooKeeper, e.g."
              + " zookeeper://127.0.0.1:2181 (default: ha.url).")
  String highAvailability;

  @Mixin TaskManagerSecretOption taskManagerSecret = new TaskManagerSecretOption();

  @Mixin WebOptions web = new WebOptions();

  @Override
  public void run() {
    ClusterSettings settings = ClusterSettings.load(configuration);
    JobManagerOptions options;
    String dashboardToken;
    try {
      String clusterSecret = secret != null ? secret : settings.get("cluster.secret", "");
      dashboardToken = DashboardToken.of(settings.get("dashboard.token", ""), clusterSecret);
      options =
          new JobManagerOptions(
              host != null ? host : settings.get("jobmanager.host", "127.0.0.1"),
              port != null ? port : settings.getInt("jobmanager.port", DEFAULT_PORT),
              clusterSecret,
              taskManagerSecret.resolve(settings, clusterSecret),
              Duration.ofMillis(
                  heartbeatTimeoutMillis != null
                      ? heartbeatTimeoutMillis
                      : settings.getInt("heartbeat.timeout.ms", 5_000)),
              checkpointDirectory != null
                  ? checkpointDirectory.toAbsolutePath()
                  : Path.of(settings.get("checkpoints.dir", "checkpoints")).toAbsolutePath(),
              settings.tls());
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
    try {
      JobManager jobManager = JobManager.start(options, highAvailability(settings));
      System.out.println("job manager listening on " + options.host() + ":" + jobManager.port());
      if (!options.taskManagersHaveTheirOwnSecret() && !options.secret().isEmpty()) {
        System.out.println(
            "job manager: task managers prove the cluster's secret; set taskmanager.secret so"
                + " that a client cannot register as one");
      }
      // The dashboard binds where the job manager does and asks for its own token.
      WebServer dashboard =
          Dashboard.start(
              web,
              web.toServerOptions(options.host(), dashboardToken),
              jobManager.monitor(),
              System.out);
      try {
        Thread.currentThread().join();
      } finally {
        if (dashboard != null) {
          dashboard.close();
        }
      }
    } catch (ClusterConnectException e) {
      throw new UserError(e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private JobManagerHighAvailability highAvailability(ClusterSettings settings) {
    return ClusterHighAvailability.address(highAvailability, settings)
        .<JobManagerHighAvailability>map(
            address ->
                new ZooKeeperHighAvailability(ClusterHighAvailability.connect(address, settings)))
        .orElse(JobManagerHighAvailability.none());
  }
}

package io.weir.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.cluster.jobmanager.JobManager;
import io.weir.cluster.jobmanager.JobManagerOptions;
import io.weir.cluster.rpc.ClusterCertificate;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job manager and two task managers with a secret and every connection (control, data, client)
 * over mutual TLS with the pair that {@code weir cluster cert} makes.
 */
class TlsClusterTest {
  private static final String SECRET = "s3cret";
  private static final String PASSWORD = "key-store-password";

  @TempDir Path directory;

  @Test
  void when_jobRunsOverTls_then_everyIdIsCommittedOnce_andPlaintextPeersAreShutOut()
      throws Exception {
    // given: the cluster's key pair in every process, and another pair that is not the cluster's
    Path keyStore = directory.resolve("weir-cluster.p12");
    Path otherStore = directory.resolve("other.p12");
    ClusterCertificate.create(keyStore, PASSWORD, List.of("node-1.example"));
    ClusterCertificate.create(otherStore, PASSWORD, List.of());
    ClusterTls tls = ClusterTls.fromKeyStore(keyStore, PASSWORD);
    Path output = directory.resolve("out");

    try (JobManager jobManager =
            JobManager.start(
                new JobManagerOptions(
                    "127.0.0.1",
                    0,
                    SECRET,
                    Duration.ofSeconds(5),
                    directory.resolve("checkpoints"),
                    tls));
        TaskManager first = TaskManager.start(taskManager(jobManager, tls));
        TaskManager second = TaskManager.start(taskManager(jobManager, tls));
        ClusterClient client = new ClusterClient(address(jobManager), SECRET, tls)) {
      // when: a job whose keyBy crosses between the task managers runs to its end
      Map<String, Integer> counts =
          BoundedClusterJob.runToEnd(client, KeyedCountJob.class, output, 3000);

      // then: every id once, and a client that knows the secret but not the pair gets nowhere,
      // whether it speaks plaintext or TLS with another pair
      assertThat(counts).hasSize(3000);
      assertThat(counts.values()).containsOnly(1);
      try (ClusterClient plaintext = new ClusterClient(address(jobManager), SECRET)) {
        assertThatThrownBy(plaintext::list)
            .isInstanceOf(ClusterConnectException.class)
            .hasMessageStartingWith(
                "The job manager at " + address(jobManager) + " failed the handshake");
      }
      try (ClusterClient stranger =
          new ClusterClient(
              address(jobManager), SECRET, ClusterTls.fromKeyStore(otherStore, PASSWORD))) {
        assertThatThrownBy(stranger::list)
            .isInstanceOf(ClusterConnectException.class)
            .hasMessageStartingWith(
                "The job manager at " + address(jobManager) + " failed the handshake");
      }
    }
  }

  private static HostAndPort address(JobManager jobManager) {
    return new HostAndPort("127.0.0.1", jobManager.port());
  }

  private static TaskManagerOptions taskManager(JobManager jobManager, ClusterTls tls) {
    return new TaskManagerOptions(
        address(jobManager), 1, "127.0.0.1", SECRET, Duration.ofMillis(300), tls);
  }
}

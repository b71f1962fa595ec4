package io.weir.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.cluster.jobmanager.JobManager;
import io.weir.cluster.jobmanager.JobManagerOptions;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.ClusterTls;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Task managers prove a secret of their own: a client that knows the cluster's secret cannot
 * register as a task manager (which would receive the jobs' code and records), a task manager's
 * secret does not let one submit or cancel jobs, and task managers exchange records with theirs.
 */
class RoleSecretsTest {
  private static final String CLIENT_SECRET = "client-s3cret";
  private static final String TASK_MANAGER_SECRET = "taskmanager-s3cret";

  @TempDir Path directory;

  @Test
  void when_rolesHaveTheirOwnSecrets_then_eachAdmitsOnlyItsRole_andTheJobIsExact()
      throws Exception {
    Path output = directory.resolve("out");
    try (JobManager jobManager =
            JobManager.start(
                new JobManagerOptions(
                    "127.0.0.1",
                    0,
                    CLIENT_SECRET,
                    TASK_MANAGER_SECRET,
                    Duration.ofSeconds(5),
                    directory.resolve("checkpoints"),
                    ClusterTls.plaintext()));
        TaskManager first = TaskManager.start(taskManager(jobManager, TASK_MANAGER_SECRET));
        TaskManager second = TaskManager.start(taskManager(jobManager, TASK_MANAGER_SECRET));
        ClusterClient client = new ClusterClient(address(jobManager), CLIENT_SECRET)) {
      // when: a client's secret offered as a task manager's
      assertThatThrownBy(() -> TaskManager.start(taskManager(jobManager, CLIENT_SECRET)))
          // then: refused, before any message of it is read
          .isInstanceOf(ClusterConnectException.class)
          .hasMessage(
              "The job manager at "
                  + address(jobManager)
                  + " refused the connection: wrong secret");
      // and a task manager's secret offered as a client's
      try (ClusterClient impostor = new ClusterClient(address(jobManager), TASK_MANAGER_SECRET)) {
        assertThatThrownBy(impostor::list)
            .isInstanceOf(ClusterConnectException.class)
            .hasMessageEndingWith("refused the connection: wrong secret");
      }

      // when: a job whose keyBy crosses between the two admitted task managers runs to its end
      Map<String, Integer> counts =
          BoundedClusterJob.runToEnd(client, KeyedCountJob.class, output, 2000);

      // then: every id once, the records having crossed with the task managers' secret
      assertThat(counts).hasSize(2000);
      assertThat(counts.values()).containsOnly(1);
    }
  }

  private static HostAndPort address(JobManager jobManager) {
    return new HostAndPort("127.0.0.1", jobManager.port());
  }

  private static TaskManagerOptions taskManager(JobManager jobManager, String secret) {
    return new TaskManagerOptions(
        address(jobManager), 1, "127.0.0.1", secret, Duration.ofMillis(300));
  }
}

package io.weir.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cluster.jobmanager.JobManager;
import io.weir.cluster.jobmanager.JobManagerOptions;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A two-input job on a job manager and two task managers in this JVM, talking over the network. */
class TwoInputClusterTest {
  @TempDir Path directory;

  @Test
  void when_keyedCoProcessRunsOnTwoTaskManagers_then_everyOrderIsCommittedOnce() throws Exception {
    Path output = directory.resolve("out");
    try (JobManager jobManager =
            JobManager.start(
                new JobManagerOptions(
                    "127.0.0.1", 0, "", Duration.ofSeconds(3), directory.resolve("checkpoints")));
        TaskManager first = TaskManager.start(taskManager(jobManager));
        TaskManager second = TaskManager.start(taskManager(jobManager));
        ClusterClient client =
            new ClusterClient(new HostAndPort("127.0.0.1", jobManager.port()), "")) {
      // when
      Map<String, Integer> counts =
          BoundedClusterJob.runToEnd(client, PaymentsJob.class, output, 3000);

      // then
      assertThat(counts).hasSize(3000).containsKeys("paid 0", "paid 2999");
      assertThat(counts.values()).containsOnly(1);
    }
  }

  private static TaskManagerOptions taskManager(JobManager jobManager) {
    return new TaskManagerOptions(
        new HostAndPort("127.0.0.1", jobManager.port()),
        1,
        "127.0.0.1",
        "",
        Duration.ofMillis(300));
  }
}

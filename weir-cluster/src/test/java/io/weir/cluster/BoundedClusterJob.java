package io.weir.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.JobSubmission;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A bounded test job with a file sink (as {@link KeyedCountJob}), run on a cluster to its end. */
final class BoundedClusterJob {
  private BoundedClusterJob() {}

  /**
   * Submits {@code jobClass} with arguments output directory, {@code records} and 1,000 records per
   * second per subtask, waits until it finished, and returns how often each committed line occurs.
   */
  static Map<String, Integer> runToEnd(
      ClusterClient client, Class<?> jobClass, Path output, int records) throws Exception {
    JobStatus submitted =
        client.submit(
            new JobSubmission(
                jobClass.getName(),
                List.of(output.toString(), "" + records, "1000"),
                null,
                null,
                null,
                false));
    await().atMost(Duration.ofSeconds(90)).until(() -> client.job(submitted.jobId()).isTerminal());
    assertThat(client.job(submitted.jobId()).state()).isEqualTo("FINISHED");
    return CommittedOutput.lineCounts(output);
  }
}

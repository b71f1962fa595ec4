package io.weir.cluster.taskmanager;

import io.weir.api.datastream.JobConfig;
import io.weir.runtime.failpoint.FailpointConfiguration;
import io.weir.runtime.failpoint.Failpoints;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The failpoints of each job this task manager runs subtasks of, kept across the job's attempts so
 * that a failpoint armed for its Nth hit counts the hits of every attempt here, as the job master's
 * do. Any thread.
 */
final class JobFailpoints {
  private final Map<String, Failpoints> byJob = new ConcurrentHashMap<>();

  /**
   * The failpoints of the job {@code jobId}, armed from {@code config} (or, when it names none,
   * from this process's configuration) the first time the job deploys here.
   *
   * @throws IllegalArgumentException naming a malformed or unknown failpoint
   */
  Failpoints of(String jobId, JobConfig config) {
    return byJob.computeIfAbsent(
        jobId,
        id -> {
          FailpointConfiguration.applyProcessConfiguration(config);
          return Failpoints.of(config.failpoints());
        });
  }
}

package io.weir.runtime.monitor;

import java.util.List;

/**
 * A job with its tasks.
 *
 * @param restarts restarts so far (failovers of the whole job)
 * @param lastFailure the message of the failure that caused the last restart or the end, or null
 */
public record JobDetail(
    String id,
    String name,
    String status,
    long startMillis,
    int attempt,
    int restarts,
    String lastFailure,
    List<TaskView> tasks) {

  public JobDetail {
    tasks = List.copyOf(tasks);
  }
}

package io.weir.runtime.monitor;

import java.util.List;

/**
 * A job with its tasks.
 *
 * @param restarts restarts so far (failovers of the whole job)
 * @param lastFailure the message of the failure that caused the last restart or the end, or null
 * @param deadLetterRecords records its sources sent to a dead-letter topic in the current attempt
 */
public record JobDetail(
    String id,
    String name,
    String status,
    long startMillis,
    int attempt,
    int restarts,
    String lastFailure,
    long deadLetterRecords,
    List<TaskView> tasks) {

  public JobDetail {
    tasks = List.copyOf(tasks);
  }
}

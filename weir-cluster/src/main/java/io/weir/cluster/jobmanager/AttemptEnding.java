package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.AttemptId;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol step between two attempts of a job on a cluster: the next attempt deploys only once
 * every task manager that ran this one has confirmed that its subtasks ended (TasksEnded, sent
 * after its cancel, the work beside the subtasks' start included), or has left the live set. Until
 * then a sink's fence sent by this attempt may still reach the broker and abort a transaction of
 * the next attempt, wherever that attempt runs.
 *
 * <p>Per task manager: {@code RUNNING -> CONFIRMED} or {@code RUNNING -> GONE}. Thread safe:
 * confirmations arrive on network threads, the job's thread waits.
 */
final class AttemptEnding {
  private static final Logger LOG = LoggerFactory.getLogger(AttemptEnding.class);

  /** What the job manager knows of the attempt on one task manager. */
  enum Ending {
    RUNNING,
    /** The task manager said its subtasks of the attempt ended. */
    CONFIRMED,
    /** The task manager left the live set (connection closed or heartbeats stopped). */
    GONE
  }

  private final AttemptId attempt;
  private final Clock clock;
  private final Map<String, Ending> taskManagers = new TreeMap<>();

  AttemptEnding(AttemptId attempt, Iterable<String> taskManagerIds, Clock clock) {
    this.attempt = attempt;
    this.clock = clock;
    taskManagerIds.forEach(id -> taskManagers.put(id, Ending.RUNNING));
  }

  /** A task manager's TasksEnded; one for another attempt is ignored. */
  synchronized void confirmed(AttemptId ended, String taskManagerId) {
    if (attempt.equals(ended) && taskManagers.replace(taskManagerId, Ending.CONFIRMED) != null) {
      notifyAll();
    }
  }

  /**
   * Blocks until every task manager of the attempt confirmed or left the live set.
   *
   * @return false when {@code cancelled} became true first
   * @throws IllegalStateException when {@code timeout} passed first: the next attempt must not
   *     deploy
   */
  synchronized boolean await(
      TaskManagerRegistry registry, Duration timeout, BooleanSupplier cancelled)
      throws InterruptedException {
    long deadline = clock.millis() + timeout.toMillis();
    while (!markGoneAndCheckEnded(registry)) {
      if (cancelled.getAsBoolean()) {
        return false;
      }
      long left = deadline - clock.millis();
      if (left <= 0) {
        throw new IllegalStateException(
            "attempt "
                + attempt
                + " has not ended on task manager(s) "
                + running()
                + " within "
                + timeout.toSeconds()
                + " s, so its sinks' fences may still land: the next attempt is not deployed");
      }
      // Woken by a confirmation; the registry's losses are polled.
      wait(Math.min(left, 500));
    }
    LOG.info("Attempt {} ended on every task manager: {}", attempt, taskManagers);
    return true;
  }

  private boolean markGoneAndCheckEnded(TaskManagerRegistry registry) {
    registry.checkHeartbeats();
    taskManagers.replaceAll(
        (id, ending) ->
            ending == Ending.RUNNING && registry.get(id) == null ? Ending.GONE : ending);
    return !taskManagers.containsValue(Ending.RUNNING);
  }

  private String running() {
    return taskManagers.entrySet().stream()
        .filter(entry -> entry.getValue() == Ending.RUNNING)
        .map(Map.Entry::getKey)
        .collect(Collectors.joining(", "));
  }
}

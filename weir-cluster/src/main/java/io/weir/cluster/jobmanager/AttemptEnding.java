package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.AttemptId;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The protocol step before a job's next attempt on a cluster: the next attempt deploys only once
 * every task manager that may still run work of an earlier one has confirmed that it ended (its
 * subtasks and the work beside their start), or has left. Until then a sink's fence sent by that
 * work may still reach the broker and abort a transaction of the next attempt, wherever it runs.
 *
 * <p>Two kinds of earlier work are waited for: an attempt of this job manager ({@link #ofAttempt}:
 * TasksEnded confirms, leaving the live set is gone), and whatever ran under an earlier leader
 * ({@link FormerLeaderTaskManagers}).
 *
 * <p>A task manager gone without its word may have started a fence just before: the wait then lasts
 * until its lease ended and the fence's bound passed ({@link Sightings#quietAfterMillis}), unless
 * the attempt's subtasks there were never told to start, or one of its heartbeats said that every
 * subtask of the attempt there had passed its start and no work beside it ran: work beside a start
 * is only added at a subtask's start, so none can follow.
 *
 * <p>Per task manager: {@code RUNNING -> CONFIRMED} or {@code RUNNING -> GONE}. Thread safe:
 * confirmations arrive on network threads, the jobs' threads wait.
 */
final class AttemptEnding {
  private static final Logger LOG = LoggerFactory.getLogger(AttemptEnding.class);

  /** What the job manager knows of the earlier work on one task manager. */
  enum Ending {
    RUNNING,
    /** The task manager said that its work ended. */
    CONFIRMED,
    /** The task manager left (the live set, or the cluster's members). */
    GONE
  }

  /**
   * What the job manager sees of the task managers without their word; a new one is taken at each
   * round of the wait, on the waiting thread, and may block briefly (a ZooKeeper read).
   */
  interface Sightings {
    /** CONFIRMED or GONE when this sighting shows it, else RUNNING. */
    Ending of(String taskManagerId);

    /**
     * For a task manager seen GONE: when, on the job manager's clock, nothing it started can still
     * land (its lease ended, plus the bound of its work); 0 when nothing is known to wait for.
     */
    long quietAfterMillis(String taskManagerId);
  }

  private final String earlierWork;
  private final AttemptId attempt;
  private final Supplier<Sightings> sightings;
  private final Clock clock;
  // Once the wait ended: what is kept only for it may go.
  private final Runnable whenEnded;
  private final Map<String, Ending> taskManagers = new TreeMap<>();
  // The latest time a task manager seen GONE may still act; the wait lasts until then too.
  private long quietAfterMillis;

  /**
   * @param earlierWork what is waited for, for the log and the failure ("attempt j#0")
   * @param attempt the attempt whose TasksEnded confirm, or null when no message confirms
   */
  AttemptEnding(
      String earlierWork,
      AttemptId attempt,
      Iterable<String> taskManagerIds,
      Supplier<Sightings> sightings,
      Clock clock) {
    this(earlierWork, attempt, taskManagerIds, sightings, clock, () -> {});
  }

  private AttemptEnding(
      String earlierWork,
      AttemptId attempt,
      Iterable<String> taskManagerIds,
      Supplier<Sightings> sightings,
      Clock clock,
      Runnable whenEnded) {
    this.earlierWork = earlierWork;
    this.attempt = attempt;
    this.sightings = sightings;
    this.clock = clock;
    this.whenEnded = whenEnded;
    taskManagerIds.forEach(id -> taskManagers.put(id, Ending.RUNNING));
  }

  /**
   * An attempt of this job manager: each task manager confirms with TasksEnded, or is gone once it
   * left the live set (connection closed, or heartbeats stopped for the timeout). Once it ended,
   * the registry forgets what the task managers reported of the attempt and of the job's earlier
   * ones.
   */
  static AttemptEnding ofAttempt(
      AttemptId attempt, Iterable<String> taskManagerIds, TaskManagerRegistry registry) {
    return new AttemptEnding(
        "attempt " + attempt,
        attempt,
        taskManagerIds,
        () -> {
          registry.checkHeartbeats();
          return new Sightings() {
            @Override
            public Ending of(String id) {
              return registry.get(id) == null ? Ending.GONE : Ending.RUNNING;
            }

            @Override
            public long quietAfterMillis(String id) {
              return registry.quietAfterMillis(id, attempt);
            }
          };
        },
        registry.clock(),
        () -> registry.forgetAttemptsThrough(attempt));
  }

  /** A task manager's TasksEnded; one for another attempt is ignored. */
  synchronized void confirmed(AttemptId ended, String taskManagerId) {
    if (ended.equals(attempt) && taskManagers.replace(taskManagerId, Ending.CONFIRMED) != null) {
      notifyAll();
    }
  }

  /**
   * Blocks until every task manager confirmed or left.
   *
   * @return false when {@code cancelled} became true first
   * @throws IllegalStateException when {@code timeout} passed first: the next attempt must not
   *     deploy
   */
  synchronized boolean await(Duration timeout, BooleanSupplier cancelled)
      throws InterruptedException {
    long deadline = clock.millis() + timeout.toMillis();
    if (taskManagers.containsValue(Ending.RUNNING)) {
      LOG.info("Waiting for {} to end on task manager(s) {}", earlierWork, running());
    }
    while (!markSightedAndCheckEnded() || clock.millis() < quietAfterMillis) {
      if (cancelled.getAsBoolean()) {
        return false;
      }
      long left = deadline - clock.millis();
      if (left <= 0) {
        throw new IllegalStateException(
            earlierWork
                + " has not ended on task manager(s) "
                + running()
                + " within "
                + timeout.toSeconds()
                + " s, so its sinks' fences may still land: the next attempt is not deployed");
      }
      // Woken by a confirmation; the sightings are polled.
      wait(Math.max(1, Math.min(left, 500)));
    }
    LOG.info(
        "{}{} ended on every task manager: {}",
        Character.toUpperCase(earlierWork.charAt(0)),
        earlierWork.substring(1),
        taskManagers);
    whenEnded.run();
    return true;
  }

  private boolean markSightedAndCheckEnded() {
    if (!taskManagers.containsValue(Ending.RUNNING)) {
      return true;
    }
    Sightings sighting = sightings.get();
    for (Map.Entry<String, Ending> entry : taskManagers.entrySet()) {
      if (entry.getValue() == Ending.RUNNING) {
        entry.setValue(sighting.of(entry.getKey()));
        if (entry.getValue() == Ending.GONE) {
          long quietAfter = sighting.quietAfterMillis(entry.getKey());
          LOG.info(
              "Task manager {} left without confirming that {} ended: {}",
              entry.getKey(),
              earlierWork,
              quietAfter > clock.millis()
                  ? "waiting " + (quietAfter - clock.millis()) + " ms for what it may have started"
                  : "nothing it started can still land");
          quietAfterMillis = Math.max(quietAfterMillis, quietAfter);
        }
      }
    }
    return !taskManagers.containsValue(Ending.RUNNING);
  }

  private String running() {
    return taskManagers.entrySet().stream()
        .filter(entry -> entry.getValue() == Ending.RUNNING)
        .map(Map.Entry::getKey)
        .collect(Collectors.joining(", "));
  }
}

package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.AttemptId;
import io.weir.runtime.startup.BesideStartStatus;
import io.weir.runtime.startup.BesideStartWork;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The live task managers. One that has not heartbeaten within the timeout, or whose connection
 * closed, is declared lost and every listener hears of it once. Thread safe.
 */
final class TaskManagerRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(TaskManagerRegistry.class);

  private final Map<String, RegisteredTaskManager> live = new ConcurrentHashMap<>();
  private final List<Consumer<String>> lostListeners = new CopyOnWriteArrayList<>();
  // What each task manager lost here last said, for quietAfterMillis.
  private final Map<String, LostTaskManager> lostTaskManagers = new ConcurrentHashMap<>();
  private final Duration heartbeatTimeout;
  private final Clock clock;

  TaskManagerRegistry(Duration heartbeatTimeout, Clock clock) {
    this.heartbeatTimeout = heartbeatTimeout;
    this.clock = clock;
  }

  /** The clock of heartbeats, leases and the waits between attempts. */
  Clock clock() {
    return clock;
  }

  void onLost(Consumer<String> listener) {
    lostListeners.add(listener);
  }

  void register(RegisteredTaskManager taskManager) {
    live.put(taskManager.id, taskManager);
    LOG.info("Task manager {} registered with {} slots", taskManager.id, taskManager.slots);
    synchronized (this) {
      notifyAll();
    }
  }

  /**
   * A heartbeat of task manager {@code id}, with what the subtasks of each attempt it runs may
   * still do beside their start.
   */
  void heartbeat(String id, Map<AttemptId, BesideStartStatus> besideStart) {
    RegisteredTaskManager taskManager = live.get(id);
    if (taskManager != null) {
      besideStart.forEach(
          (attempt, status) -> {
            BesideStartStatus before = taskManager.besideStart.put(attempt, status);
            if (status == BesideStartStatus.QUIET && before != BesideStartStatus.QUIET) {
              LOG.info(
                  "Task manager {} started {} with nothing running beside its starts: if it is"
                      + " lost, the next attempt need not wait for its fences",
                  id,
                  attempt);
            }
          });
      taskManager.lastHeartbeatMillis = clock.millis();
    }
  }

  /** Declares lost every task manager silent for longer than the heartbeat timeout. */
  void checkHeartbeats() {
    long now = clock.millis();
    forgetLostWhoseWorkCannotLand(now);
    for (RegisteredTaskManager taskManager : List.copyOf(live.values())) {
      long silentMillis = now - taskManager.lastHeartbeatMillis;
      if (silentMillis > heartbeatTimeout.toMillis()) {
        declareLost(
            taskManager.id,
            "no heartbeat for "
                + silentMillis
                + " ms (timeout "
                + heartbeatTimeout.toMillis()
                + " ms)");
      }
    }
  }

  void declareLost(String id, String reason) {
    RegisteredTaskManager lost = live.remove(id);
    if (lost == null) {
      return;
    }
    // Closed before the attempts told to start are read: a start sent after this is not delivered.
    lost.connection.close();
    lostTaskManagers.put(
        id,
        new LostTaskManager(
            lost.lastHeartbeatMillis
                + heartbeatTimeout.toMillis()
                + BesideStartWork.WORK_BOUND.toMillis(),
            Map.copyOf(lost.besideStart),
            Set.copyOf(lost.startsSent)));
    LOG.warn("Task manager {} is lost: {}", id, reason);
    lostListeners.forEach(listener -> listener.accept(id));
  }

  /**
   * Forgets every task manager without declaring it lost, for a deposed leader: they follow the new
   * leader, and the jobs they ran here are abandoned already.
   */
  void dropAll() {
    for (RegisteredTaskManager dropped : List.copyOf(live.values())) {
      if (live.remove(dropped.id, dropped)) {
        dropped.connection.close();
      }
    }
  }

  /**
   * The live task managers, by id. Those silent for longer than the heartbeat timeout are declared
   * lost first, whether or not the timer's check ran: a job manager woken from a freeze (its timer
   * as late as the rest of it) must not deploy to task managers that left it meanwhile.
   */
  List<RegisteredTaskManager> live() {
    checkHeartbeats();
    List<RegisteredTaskManager> all = new ArrayList<>(live.values());
    all.sort(Comparator.comparing(taskManager -> taskManager.id));
    return all;
  }

  /**
   * When nothing of {@code attempt} that a task manager lost here started beside a start (a sink's
   * fence) can still reach an external system, on this registry's clock. 0 when the attempt's
   * subtasks there were never told to start (a loss while the attempt deployed): such work begins
   * only in a subtask's start. 0 too when a heartbeat of it said {@link BesideStartStatus#QUIET}
   * for the attempt: every subtask there had passed its start, where such work is added, and none
   * ran. Otherwise its lease ended by its last heartbeat here plus the heartbeat timeout, and such
   * work acts only within {@link BesideStartWork#WORK_BOUND} of its start. 0 for a task manager not
   * lost here (or lost so long ago that this time passed and it was forgotten).
   */
  long quietAfterMillis(String id, AttemptId attempt) {
    LostTaskManager lost = lostTaskManagers.get(id);
    if (lost == null
        || !lost.startsSent().contains(attempt)
        || lost.besideStart().get(attempt) == BesideStartStatus.QUIET) {
      return 0;
    }
    return lost.workCannotLandAfterMillis();
  }

  /**
   * Forgets what the task managers said of {@code attempt} and of its job's attempts before it: the
   * job moved past them (their ending was awaited) or ended, so no wait asks for those reports any
   * more. A heartbeat leaves out an attempt that ended, so without this a long-lived cluster would
   * keep one report per attempt per task manager. A heartbeat sent just before an attempt's
   * TasksEnded may put its report back afterwards; the job's next move past an attempt takes it.
   */
  void forgetAttemptsThrough(AttemptId attempt) {
    for (RegisteredTaskManager taskManager : live.values()) {
      taskManager.besideStart.keySet().removeIf(reported -> isThrough(reported, attempt));
      taskManager.startsSent.removeIf(started -> isThrough(started, attempt));
    }
  }

  private static boolean isThrough(AttemptId candidate, AttemptId attempt) {
    return candidate.jobId().equals(attempt.jobId()) && candidate.attempt() <= attempt.attempt();
  }

  /**
   * A lost task manager is remembered until its lease and the bound of its work passed: from then
   * on {@link #quietAfterMillis} is in the past for every attempt, as it is for one never lost
   * here.
   */
  private void forgetLostWhoseWorkCannotLand(long now) {
    lostTaskManagers.values().removeIf(lost -> lost.workCannotLandAfterMillis() <= now);
  }

  /** How many lost task managers are remembered for {@link #quietAfterMillis}. */
  int lostRemembered() {
    return lostTaskManagers.size();
  }

  /**
   * What a lost task manager said of each attempt's starts, and when nothing it started can land:
   * its lease ended by its last heartbeat here plus the heartbeat timeout, and what it started
   * beside a start acts within {@link BesideStartWork#WORK_BOUND}.
   */
  private record LostTaskManager(
      long workCannotLandAfterMillis,
      Map<AttemptId, BesideStartStatus> besideStart,
      Set<AttemptId> startsSent) {}

  RegisteredTaskManager get(String id) {
    return live.get(id);
  }

  /** The slots of the task managers that heartbeat within the timeout. */
  int freeSlotsTotal() {
    long now = clock.millis();
    return live.values().stream()
        .filter(taskManager -> now - taskManager.lastHeartbeatMillis <= heartbeatTimeout.toMillis())
        .mapToInt(taskManager -> taskManager.slots)
        .sum();
  }

  /** Waits until the live task managers have at least {@code slots} slots; false on timeout. */
  synchronized boolean awaitSlots(int slots, long timeoutMillis) throws InterruptedException {
    long deadline = clock.millis() + timeoutMillis;
    while (freeSlotsTotal() < slots) {
      long left = deadline - clock.millis();
      if (left <= 0) {
        return false;
      }
      wait(Math.min(left, 200));
    }
    return true;
  }
}

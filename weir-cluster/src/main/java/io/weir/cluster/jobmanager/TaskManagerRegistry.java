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
    lostTaskManagers.put(
        id, new LostTaskManager(lost.lastHeartbeatMillis, Map.copyOf(lost.besideStart)));
    LOG.warn("Task manager {} is lost: {}", id, reason);
    lost.connection.close();
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
   * fence) can still reach an external system, on this registry's clock. 0 when a heartbeat of it
   * said {@link BesideStartStatus#QUIET} for the attempt: every subtask there had passed its start,
   * where such work is added, and none ran. Otherwise its lease ended by its last heartbeat here
   * plus the heartbeat timeout, and such work acts only within {@link BesideStartWork#WORK_BOUND}
   * of its start. 0 for a task manager not lost here.
   */
  long quietAfterMillis(String id, AttemptId attempt) {
    LostTaskManager lost = lostTaskManagers.get(id);
    if (lost == null || lost.besideStart().get(attempt) == BesideStartStatus.QUIET) {
      return 0;
    }
    return lost.lastHeartbeatMillis()
        + heartbeatTimeout.toMillis()
        + BesideStartWork.WORK_BOUND.toMillis();
  }

  /** A lost task manager's last heartbeat here and what it said of each attempt's starts. */
  private record LostTaskManager(
      long lastHeartbeatMillis, Map<AttemptId, BesideStartStatus> besideStart) {}

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

package io.weir.cluster.jobmanager;

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
  // The last heartbeat of each task manager lost here, for quietAfterMillis.
  private final Map<String, Long> lastHeartbeatOfLost = new ConcurrentHashMap<>();
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

  void heartbeat(String id) {
    RegisteredTaskManager taskManager = live.get(id);
    if (taskManager != null) {
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
    lastHeartbeatOfLost.put(id, lost.lastHeartbeatMillis);
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
   * When nothing that a task manager lost here started beside a start (a sink's fence) can still
   * reach an external system, on this registry's clock: its lease ended by its last heartbeat here
   * plus the heartbeat timeout, and such work acts only within {@link BesideStartWork#WORK_BOUND}
   * of its start. 0 for a task manager not lost here.
   */
  long quietAfterMillis(String id) {
    Long lastHeartbeat = lastHeartbeatOfLost.get(id);
    return lastHeartbeat == null
        ? 0
        : lastHeartbeat + heartbeatTimeout.toMillis() + BesideStartWork.WORK_BOUND.toMillis();
  }

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

package io.weir.runtime.checkpoint;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The checkpoint notifications that functions of a test job received, in the order they arrived,
 * with the thread (so the task) that delivered each. Static because every subtask works on its own
 * serialized copy of a function.
 */
final class NotificationLog {
  /** One {@code notifyCheckpointComplete} call. */
  record Notification(String listener, long checkpointId, String thread) {}

  private static final ConcurrentLinkedQueue<Notification> NOTIFICATIONS =
      new ConcurrentLinkedQueue<>();

  private NotificationLog() {}

  static void record(String listener, long checkpointId) {
    NOTIFICATIONS.add(new Notification(listener, checkpointId, Thread.currentThread().getName()));
  }

  static List<Notification> notifications() {
    return List.copyOf(NOTIFICATIONS);
  }

  static void clear() {
    NOTIFICATIONS.clear();
  }
}

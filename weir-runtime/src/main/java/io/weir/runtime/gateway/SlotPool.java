package io.weir.runtime.gateway;

import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The task managers a job's attempts run on. Slot {@code i} runs subtask {@code i} of every task
 * (as Flink's slot sharing does), so an attempt needs as many slots as the job's highest
 * parallelism. In one JVM a single task manager has every slot; on a cluster the slots are those
 * the task managers registered.
 *
 * <p>Called from the job's thread, once per attempt.
 */
public interface SlotPool {
  /**
   * Blocks until {@code needed} slots are free, then returns the task manager of each slot as
   * attempt {@code attempt} talks to it (one gateway per task manager, repeated for each of its
   * slots).
   *
   * @param cancelled polled while waiting: the job was cancelled
   * @return the slots, or null when the job was cancelled while waiting
   */
  List<TaskManagerGateway> awaitSlots(int attempt, int needed, BooleanSupplier cancelled)
      throws InterruptedException;
}

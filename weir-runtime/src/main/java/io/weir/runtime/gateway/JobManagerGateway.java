package io.weir.runtime.gateway;

import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;

/**
 * What the subtasks of one attempt tell the job manager: the attempt's side of the conversation
 * with its task managers. In one JVM the attempt itself receives these calls; on a cluster a task
 * manager sends them as messages and the job manager hands them to the attempt they name (those of
 * an older attempt are dropped).
 *
 * <p>Threads: called from task threads, snapshot threads or a task manager's control thread (in one
 * JVM) or from network and acknowledgement threads (on a cluster); implementations are thread safe
 * and never block for long. Order: the calls about one subtask arrive in the order they were made
 * (running, then data finished, then terminated; or failed). Failure: an implementation does not
 * throw; a lost task manager is reported by the transport, not through this interface.
 */
public interface JobManagerGateway {
  /**
   * A task manager created its subtasks of the attempt (nothing runs yet), or could not: then
   * {@code error} says why.
   */
  void tasksDeployed(String taskManagerId, Throwable error);

  /** The subtask's operators are initialised and open; it processes records from now on. */
  void taskRunning(SubtaskKey subtask);

  /**
   * A sink of the subtask received its first record of the attempt: the first checkpoint that
   * commits output can be triggered now. A transport that did not carry it would leave the first
   * output to the periodic checkpoints.
   */
  default void sinkReceivedFirstRecord(SubtaskKey subtask) {}

  /** The subtask processed all its input; it waits for the final checkpoint. */
  void taskDataFinished(SubtaskKey subtask);

  /** The subtask closed its operators after the job ended. */
  void taskTerminated(SubtaskKey subtask);

  /**
   * The subtask failed; reported once, never for a cancelled subtask.
   *
   * @param taskName the subtask's name for messages, {@code Map -> Sink: Example Sink (2/4)}
   */
  void taskFailed(SubtaskKey subtask, String taskName, Throwable cause);

  /** The subtask's state of checkpoint {@code checkpointId} is durable at {@code state}. */
  void acknowledgeCheckpoint(long checkpointId, SubtaskKey subtask, StateHandle state);

  /** The subtask cannot take part in checkpoint {@code checkpointId}. */
  void declineCheckpoint(long checkpointId, SubtaskKey subtask, Throwable cause);
}

package io.weir.runtime.task;

/** What the job hears from its tasks. Called from task threads; implementations are thread safe. */
public interface TaskListener {
  /** The task's operators are initialised and open; it processes records from now on. */
  default void onRunning(StreamTask task) {}

  /**
   * A sink of the task received its first record: the job has output to commit. Once per sink
   * operator, on the task thread; must not block.
   */
  default void onFirstSinkRecord(StreamTask task) {}

  /**
   * The task processed all its input and ran {@code endInput}; it waits for the final checkpoint.
   */
  void onDataFinished(StreamTask task);

  /** The task closed its operators after the job ended. */
  void onTerminated(StreamTask task);

  /** The task failed; reported once per task, not for a cancelled task. */
  void onFailure(StreamTask task, Throwable cause);
}

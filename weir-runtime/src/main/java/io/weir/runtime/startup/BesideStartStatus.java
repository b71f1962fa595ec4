package io.weir.runtime.startup;

/**
 * What one attempt's subtasks on one task manager may still do beside their start, as {@link
 * BesideStartWork#status} reads it: {@code STARTING -> WORK_RUNNING -> QUIET}, or {@code STARTING
 * -> QUIET}; never back, as work beside a start is only added at a subtask's start.
 */
public enum BesideStartStatus {
  /**
   * A subtask has not passed its start yet (still initialising, or not started): it may add work.
   */
  STARTING,
  /** Every subtask passed its start; work one of them added beside it still runs. */
  WORK_RUNNING,
  /**
   * Every subtask passed its start and no work beside it runs: nothing of the attempt there can
   * reach an external system beside a start any more.
   */
  QUIET
}

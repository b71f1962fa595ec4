package io.weir.runtime.monitor;

import java.io.Serializable;
import java.util.List;

/**
 * One subtask's figures with the task it belongs to: what a task manager's heartbeat carries of
 * each subtask it runs, and what a local run reads of its own.
 *
 * @param taskId the job vertex the subtask runs
 * @param traces its most recent checkpoint traces, oldest first (a heartbeat carries the last few,
 *     so that the job manager can draw the subtask's part of each checkpoint); empty where the
 *     reader takes them from the subtask itself
 */
public record SubtaskFigures(
    String taskId, SubtaskView subtask, List<SubtaskCheckpointTrace> traces)
    implements Serializable {
  public SubtaskFigures {
    traces = List.copyOf(traces);
  }
}

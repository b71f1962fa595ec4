package io.weir.runtime.monitor;

import java.io.Serializable;

/**
 * One subtask's figures with the task it belongs to: what a task manager's heartbeat carries of
 * each subtask it runs, and what a local run reads of its own.
 *
 * @param taskId the job vertex the subtask runs
 */
public record SubtaskFigures(String taskId, SubtaskView subtask) implements Serializable {}

package io.weir.runtime.checkpoint;

/** One subtask of the job, as acknowledgements name it. */
public record SubtaskKey(String taskId, int subtaskIndex) {}

package io.weir.runtime.gateway;

/** Where one subtask of an attempt runs: on which task manager. */
public record SubtaskPlacement(String vertexId, int subtask, String taskManagerId) {}

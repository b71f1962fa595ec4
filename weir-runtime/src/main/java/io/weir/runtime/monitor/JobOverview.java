package io.weir.runtime.monitor;

/**
 * One line of the job list.
 *
 * @param startMillis wall-clock time the job was submitted or started
 * @param lastCompletedCheckpoint id of the newest completed checkpoint, or null
 */
public record JobOverview(
    String id, String name, String status, long startMillis, Long lastCompletedCheckpoint) {}

package io.weir.runtime.monitor;

/**
 * What the job's current attempt restored from.
 *
 * @param restoredFrom {@code checkpoint}, {@code savepoint} or {@code nothing} (a fresh start)
 * @param checkpointId the restored checkpoint's id, or null
 * @param location the restored checkpoint's directory, or null
 * @param lastFailure the failure that caused the last restart, or null
 */
public record RecoveryView(
    String restoredFrom,
    Long checkpointId,
    String location,
    int attempt,
    int restarts,
    String lastFailure) {}

package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;

/**
 * A source that sends a record which failed the job too often to a dead-letter topic instead of
 * failing the job for good. It is the one place that counts them; the runtime reads the count for
 * the job's result, its progress line, the REST API and metrics, and on a cluster carries it to the
 * job manager with the task manager's heartbeats.
 *
 * <p>Read from any thread, at the pace of progress lines and requests, never per record: the value
 * may lag a send by a moment but must never block the task.
 */
@PublicEvolving
public interface DeadLetterCounting {
  /** Records this subtask sent to the dead-letter topic since it started (this attempt). */
  long deadLetterRecords();
}

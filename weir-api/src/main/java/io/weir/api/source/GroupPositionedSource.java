package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.util.List;

/**
 * A source whose start without state reads positions kept outside the job (a Kafka source: its
 * consumer group's committed offsets), and which can move them forward to a checkpoint's positions.
 * A start from the group's offsets (or {@code --fresh}) with a checkpoint at hand calls it after
 * the job's two-phase-commit sinks committed that checkpoint's pending transactions, so that no
 * split starts before records whose output is already committed.
 *
 * <p>Contract: called by the job manager on its own thread, at most once per attempt, before any
 * subtask of the attempt is deployed and after the sinks' recovery step; on an instance of its own
 * (a copy of the job's source). It may block (broker round trips). An exception moves nothing that
 * matters: the attempt fails and the next one calls again; calling again is safe.
 */
@PublicEvolving
public interface GroupPositionedSource {
  /**
   * Moves each split's position kept outside the job to at least its position in {@code
   * checkpointPositions}; splits already at or past it stay where they are.
   *
   * @param checkpointPositions the positions the checkpoint holds for this source, of all former
   *     subtasks
   * @return one phrase per split moved, for a log line (e.g. {@code orders-1 from 120 to 300})
   */
  List<String> startNoEarlierThan(List<SourcePosition> checkpointPositions) throws Exception;
}

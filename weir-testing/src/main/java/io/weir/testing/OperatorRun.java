package io.weir.testing;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.checkpoint.assignment.StateAssignment;
import io.weir.runtime.operators.OperatorSetup;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.operators.TwoInputStreamOperator;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One attempt of the operator under test: an initialized and opened instance per subtask, each with
 * its own processing-time callbacks, all emitting into the same records. A restore is a new run:
 * state is assigned to the subtasks by the runtime's {@link StateAssignment}, so keyed state moves
 * by key group and list state is split as on a real restore.
 */
final class OperatorRun {
  private record Subtask(StreamOperator operator, ManualTimeService time) {}

  private final OperatorUnderTest operator;
  private final EmittedRecords emitted;
  private final List<Subtask> subtasks = new ArrayList<>();
  private final OperatorInfo info;

  /**
   * Starts every subtask, from {@code restored} when it is not null, else without state.
   *
   * @param attempt what {@code RuntimeContext.attempt()} returns in this run
   * @param commitObserver what watches the commits of a two-phase-commit sink
   */
  OperatorRun(
      OperatorUnderTest operator,
      ManualClock clock,
      EmittedRecords emitted,
      int parallelism,
      OperatorSnapshot restored,
      int attempt,
      CommitObserver commitObserver)
      throws Exception {
    this.operator = operator;
    this.emitted = emitted;
    this.info =
        new OperatorInfo(operator.uid(), operator.name(), parallelism, operator.maxParallelism());
    if (restored != null) {
      operator.recovery().recover(operator.name(), restored);
    }
    List<OperatorSubtaskState> states =
        restored == null
            ? Collections.nCopies(parallelism, OperatorSubtaskState.EMPTY)
            : StateAssignment.assignOperatorState(info, restored.state());
    OptionalLong restoredId =
        restored == null ? OptionalLong.empty() : OptionalLong.of(restored.checkpointId());
    for (int index = 0; index < parallelism; index++) {
      ManualTimeService time = new ManualTimeService(clock);
      OperatorSetup setup =
          new OperatorSetup(
              operator.uid(),
              operator.name(),
              "test-job",
              index,
              parallelism,
              operator.maxParallelism(),
              attempt,
              operator.keySelector(),
              states.get(index),
              restoredId,
              time,
              commitObserver,
              operator.keyedStateBackends());
      StreamOperator instance = operator.maker().make(setup, emitted);
      instance.initializeState();
      instance.open();
      subtasks.add(new Subtask(instance, time));
    }
  }

  int parallelism() {
    return subtasks.size();
  }

  void processElement(int subtask, Object record, long timestamp) throws Exception {
    subtasks.get(subtask).operator().processElement(record, timestamp);
  }

  /** A record of the second input of a two-input operator. */
  void processElement2(int subtask, Object record, long timestamp) throws Exception {
    StreamOperator instance = subtasks.get(subtask).operator();
    if (!(instance instanceof TwoInputStreamOperator twoInput)) {
      throw new IllegalStateException(operator.name() + " has one input");
    }
    twoInput.processElement2(record, timestamp);
  }

  /** Every subtask gets the watermark, as after a broadcast from all inputs. */
  void processWatermark(long watermark) throws Exception {
    for (Subtask subtask : subtasks) {
      subtask.operator().processWatermark(watermark);
    }
  }

  /** Runs every processing-time callback now due, subtask by subtask. */
  void fireProcessingTimers() throws Exception {
    for (Subtask subtask : subtasks) {
      subtask.time().fireDue();
    }
  }

  void endInput() throws Exception {
    for (Subtask subtask : subtasks) {
      subtask.operator().endInput();
    }
  }

  OperatorSnapshot snapshot(long checkpointId, long timestamp) throws Exception {
    Map<Integer, OperatorSubtaskState> states = new LinkedHashMap<>();
    for (int index = 0; index < subtasks.size(); index++) {
      StreamOperator instance = subtasks.get(index).operator();
      OperatorSubtaskState state = instance.snapshotState(checkpointId, timestamp);
      // The asynchronous part, as a task runs it after the barrier: a backend that writes files
      // writes them here, and the key groups written only now join the rest.
      states.put(index, state.withKeyGroups(instance.materializeSnapshot(checkpointId)));
    }
    return new OperatorSnapshot(checkpointId, new OperatorState(info, states));
  }

  void notifyCheckpointComplete(long checkpointId) throws Exception {
    for (Subtask subtask : subtasks) {
      subtask.operator().notifyCheckpointComplete(checkpointId);
    }
  }

  void awaitCommitsInFlight() throws Exception {
    for (Subtask subtask : subtasks) {
      subtask.operator().awaitCommitsInFlight();
    }
  }

  void notifyCheckpointAborted(long checkpointId) throws Exception {
    for (Subtask subtask : subtasks) {
      subtask.operator().notifyCheckpointAborted(checkpointId);
    }
  }

  /** Closes every subtask; the first failure is thrown after all were closed. */
  void close() throws Exception {
    Exception first = null;
    for (Subtask subtask : subtasks) {
      try {
        subtask.operator().close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    subtasks.clear();
    if (first != null) {
      throw first;
    }
  }

  OperatorUnderTest operator() {
    return operator;
  }
}

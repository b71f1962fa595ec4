package io.weir.runtime.task;

import io.weir.api.checkpoint.NotifyOrder;
import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.types.UnsupportedTypeException;
import io.weir.runtime.monitor.SubtaskMetrics;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The operators of one subtask, head first, and the order in which they are told about completed
 * checkpoints. Opened tail first (so an operator is ready before anything emits into it), fed and
 * closed head first.
 */
final class OperatorChain {
  private final List<StreamOperator> operators;
  // A failing and a cancelled task may both come to close the chain; its functions close once.
  private final AtomicBoolean closed = new AtomicBoolean();
  private final NotifyOrder notifyOrder;
  private final SubtaskMetrics metrics;

  OperatorChain(List<StreamOperator> operators, NotifyOrder notifyOrder, SubtaskMetrics metrics) {
    this.operators = List.copyOf(operators);
    this.notifyOrder = notifyOrder;
    this.metrics = metrics;
  }

  StreamOperator head() {
    return operators.get(0);
  }

  List<StreamOperator> operators() {
    return operators;
  }

  /**
   * Initializes the state of every operator, then opens them tail first. A type the user function
   * declared for its state and that has no serializer fails the job without restarts, in one line
   * that names the operator: the type's serializer is built in the user's code, which knows the
   * type but not which operator it runs in.
   */
  void initializeAndOpen() throws Exception {
    for (StreamOperator operator : operators) {
      namingOperatorOfUnsupportedType(operator, operator::initializeState);
    }
    for (int i = operators.size() - 1; i >= 0; i--) {
      namingOperatorOfUnsupportedType(operators.get(i), operators.get(i)::open);
    }
  }

  private static void namingOperatorOfUnsupportedType(StreamOperator operator, Step step)
      throws Exception {
    try {
      step.run();
    } catch (UnsupportedTypeException e) {
      throw new SuppressRestartsException(
          "Operator '" + operator.setup().uid() + "': " + e.getMessage(), e);
    }
  }

  /** One lifecycle call of an operator. */
  private interface Step {
    void run() throws Exception;
  }

  TaskSnapshot snapshot(long checkpointId, long timestamp) throws Exception {
    Map<String, OperatorSubtaskState> states = new LinkedHashMap<>();
    for (StreamOperator operator : operators) {
      states.put(operator.setup().uid(), operator.snapshotState(checkpointId, timestamp));
    }
    return new TaskSnapshot(states);
  }

  /**
   * The asynchronous part of the snapshot of every operator, on the snapshot thread: {@code
   * snapshot}, the synchronous part, with the key groups written only now.
   */
  TaskSnapshot materializeSnapshot(long checkpointId, TaskSnapshot snapshot) throws Exception {
    Map<String, OperatorSubtaskState> states = new LinkedHashMap<>(snapshot.operators());
    for (StreamOperator operator : operators) {
      Map<Integer, byte[]> written = operator.materializeSnapshot(checkpointId);
      if (!written.isEmpty()) {
        String uid = operator.setup().uid();
        states.put(
            uid, states.getOrDefault(uid, OperatorSubtaskState.EMPTY).withKeyGroups(written));
      }
    }
    return new TaskSnapshot(states);
  }

  /**
   * Tells each operator in notify order. An operator whose commits run on past its notification is
   * waited for before a later listener of the chain is told, so the order orders the commits too.
   */
  void notifyCheckpointComplete(long checkpointId) throws Exception {
    List<StreamOperator> order = inNotifyOrder();
    for (int i = 0; i < order.size(); i++) {
      StreamOperator operator = order.get(i);
      long start = metrics.nowMillis();
      try {
        operator.notifyCheckpointComplete(checkpointId);
        if (aListenerFollows(order, i)) {
          operator.awaitCommitsInFlight();
        }
      } catch (Exception | Error e) {
        metrics.notified(checkpointId, operator.setup().uid(), start, e);
        throw e;
      }
      metrics.notified(checkpointId, operator.setup().uid(), start, null);
    }
  }

  void notifyCheckpointAborted(long checkpointId) throws Exception {
    for (StreamOperator operator : inNotifyOrder()) {
      operator.notifyCheckpointAborted(checkpointId);
    }
  }

  private static boolean aListenerFollows(List<StreamOperator> order, int index) {
    for (int later = index + 1; later < order.size(); later++) {
      if (order.get(later).listensToCheckpoints()) {
        return true;
      }
    }
    return false;
  }

  private List<StreamOperator> inNotifyOrder() {
    if (notifyOrder == NotifyOrder.FORWARD) {
      return operators;
    }
    List<StreamOperator> reversed = new ArrayList<>(operators);
    java.util.Collections.reverse(reversed);
    return reversed;
  }

  void endInput() throws Exception {
    for (StreamOperator operator : operators) {
      operator.endInput();
    }
  }

  /**
   * The task ends successfully, its last notification processed: each operator, in notify order,
   * first finishes the commits it still runs, then makes sure their output can be read.
   */
  void afterLastCommit() throws Exception {
    for (StreamOperator operator : inNotifyOrder()) {
      operator.awaitCommitsInFlight();
      operator.afterLastCommit();
    }
  }

  /**
   * Closes every operator, head first, even when one fails; the first failure is thrown. Only the
   * first call does so.
   */
  void close() throws Exception {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    Exception first = null;
    for (StreamOperator operator : operators) {
      try {
        operator.close();
      } catch (Exception e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }
}

package io.weir.runtime.taskexecutor;

import io.weir.api.state.StateSerializer;
import io.weir.runtime.exchange.BatchReceiver;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.gateway.SubtaskPlacement;
import java.util.List;

/**
 * The exchange between the subtasks of one attempt that run on different task managers. Between
 * subtasks of one task manager records go straight into the receiver's {@link InputGate}; this
 * carries the others (over the network on a cluster). In one JVM every subtask is local: {@link
 * #IN_PROCESS} carries nothing.
 *
 * <p>Threads: {@link #registerGate} and {@link #channelTo} are called while deploying, before any
 * subtask starts; {@link #close} once the attempt's subtasks ended. A channel returned blocks its
 * sending task while the receiver holds as much as it may (backpressure, as a full gate does).
 */
public interface ExchangeTransport {
  /**
   * Makes the gate of a subtask of this task manager reachable from the other task managers.
   *
   * @param serializers by input channel, how its records are encoded (an entry is null for the
   *     exchange's own encoding)
   */
  void registerGate(
      String vertexId, int subtask, InputGate gate, List<StateSerializer<?>> serializers);

  /**
   * The sending end of input channel {@code channel} of a subtask on another task manager, which
   * encodes the edge's records as {@code encoding} says.
   *
   * @throws Exception when that task manager cannot be reached
   */
  BatchReceiver channelTo(SubtaskPlacement target, int channel, RecordEncoding encoding)
      throws Exception;

  /**
   * The batches a sender on another task manager may have in flight to a gate here besides those
   * the gate holds: those on their way or waiting for room, and the one it fills. Adaptive credit
   * shares the gate's budget among them.
   */
  int batchesInFlightPerRemoteChannel();

  /** Drops the attempt's gates and connections; never fails. */
  void close();

  /** Every subtask runs in this JVM: nothing to carry. */
  ExchangeTransport IN_PROCESS =
      new ExchangeTransport() {
        @Override
        public void registerGate(
            String vertexId, int subtask, InputGate gate, List<StateSerializer<?>> serializers) {}

        @Override
        public BatchReceiver channelTo(
            SubtaskPlacement target, int channel, RecordEncoding encoding) {
          throw new IllegalStateException(
              "Subtask " + target.vertexId() + "/" + target.subtask() + " runs elsewhere");
        }

        @Override
        public int batchesInFlightPerRemoteChannel() {
          return 1;
        }

        @Override
        public void close() {}
      };
}

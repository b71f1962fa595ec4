package io.weir.cluster.exchange;

import io.weir.api.state.StateSerializer;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.MessageHandler;
import io.weir.cluster.rpc.RpcConnection;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InputGate;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving side of the exchange on one task manager: hands each arriving frame to the input
 * gate of its subtask, on one delivery thread per gate (so a full gate blocks only its own senders,
 * never the network thread), then returns a credit to the sender, which carries the gate's credit
 * in records (adaptive with the receiving task's throughput). The gate counts a frame's records in
 * flight from its arrival, so that what waits here for room shows with what the gate holds. A frame
 * that ends with a checkpoint barrier is announced to the gate as it arrives, so that with
 * unaligned checkpoints the frames waiting for room ahead of it enter the gate at once and its
 * barrier overtakes them there; it returns no credit, as it took none. Frames of attempts that are
 * gone are dropped.
 */
public final class InboundGates implements MessageHandler {
  private static final Logger LOG = LoggerFactory.getLogger(InboundGates.class);

  private final Map<GateKey, Delivery> deliveries = new ConcurrentHashMap<>();

  private record GateKey(AttemptId attempt, String vertexId, int subtask) {}

  private record Delivery(
      InputGate gate,
      List<StateSerializer<?>> serializers,
      ExecutorService thread,
      ClassLoader loader) {}

  /**
   * Makes the gate reachable from other task managers until {@link #unregister}.
   *
   * @param serializers by input channel, the serializer its sender encodes records with (null for
   *     the exchange's own encoding)
   */
  public void register(
      AttemptId attempt,
      String vertexId,
      int subtask,
      InputGate gate,
      List<StateSerializer<?>> serializers) {
    ExecutorService thread =
        Executors.newSingleThreadExecutor(
            runnable -> {
              Thread t = new Thread(runnable, "weir delivery " + vertexId + "/" + subtask);
              t.setDaemon(true);
              return t;
            });
    deliveries.put(
        new GateKey(attempt, vertexId, subtask),
        new Delivery(gate, serializers, thread, Thread.currentThread().getContextClassLoader()));
  }

  /** Drops every gate of the attempt and stops their delivery threads. */
  public void unregister(AttemptId attempt) {
    deliveries
        .entrySet()
        .removeIf(
            entry -> {
              if (entry.getKey().attempt().equals(attempt)) {
                entry.getValue().thread().shutdownNow();
                return true;
              }
              return false;
            });
  }

  @Override
  public void onMessage(RpcConnection connection, Object message) {
    if (!(message instanceof DataMessages.DataFrame frame)) {
      return;
    }
    Delivery delivery =
        deliveries.get(new GateKey(frame.attempt(), frame.vertexId(), frame.subtask()));
    if (delivery == null) {
      return;
    }
    delivery.gate().arriving(frame.channel(), frame.size());
    if (frame.endsWithBarrier()) {
      delivery.gate().expectOvertakingBarrier(frame.channel());
    }
    delivery.thread().execute(() -> deliver(delivery, frame, connection));
  }

  private static void deliver(
      Delivery delivery, DataMessages.DataFrame frame, RpcConnection connection) {
    Batch batch;
    try {
      batch = BatchCodec.decode(frame.payload(), delivery.loader(), delivery.serializers()::get);
    } catch (Exception | LinkageError e) {
      // A class refused or missing (also as a linkage error of a class the serializer loads), or a
      // declared serializer's error: the receiving task fails (and the job restarts as after any
      // task failure) instead of waiting for the dropped records.
      delivery
          .gate()
          .failDelivery(
              new IOException(
                  "Cannot decode a batch for "
                      + frame.vertexId()
                      + " subtask "
                      + frame.subtask()
                      + ": "
                      + e,
                  e));
      return;
    }
    try {
      delivery.gate().putArrived(batch);
      if (!frame.endsWithBarrier()) {
        connection.send(
            new DataMessages.Credit(
                frame.attempt(),
                frame.vertexId(),
                frame.subtask(),
                batch.channel(),
                delivery.gate().recordsPerBatch()));
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | LinkageError e) {
      // Logged alone, the dropped batch would leave its reader waiting for records (and perhaps a
      // barrier) that never come: the task fails instead, and the job restarts from a checkpoint.
      LOG.error("Cannot deliver a batch to {} subtask {}", frame.vertexId(), frame.subtask(), e);
      delivery
          .gate()
          .failDelivery(
              new IOException(
                  "Cannot deliver a batch to " + frame.vertexId() + " subtask " + frame.subtask(),
                  e));
    }
  }
}

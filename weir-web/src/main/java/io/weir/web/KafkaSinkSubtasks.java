package io.weir.web;

import io.weir.api.sink.TransactionView;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.KafkaStatus;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Each Kafka sink subtask's open transaction and its pending ones (pre-committed, awaiting their
 * checkpoint's notification), as the subtask itself tells them (records written, checkpoint),
 * joined with what the broker says of the same transactional id (producer id and epoch, state).
 */
final class KafkaSinkSubtasks {
  /**
   * One transaction of a sink subtask.
   *
   * @param checkpointId the checkpoint a pending transaction belongs to, or null for the open one
   * @param producerId the broker's producer id for it, or -1 when the broker holds nothing open for
   *     the id (a transaction without records yet)
   * @param brokerState the broker's state of the transaction, or null when it holds nothing open
   */
  record Transaction(
      String transactionalId,
      Long checkpointId,
      long producerId,
      int producerEpoch,
      long ageMillis,
      long records,
      String brokerState) {}

  /** One sink subtask: its open transaction (null between a close and the next begin). */
  record Subtask(int subtask, Transaction open, List<Transaction> pending) {}

  private KafkaSinkSubtasks() {}

  /** The subtasks of the Kafka sink {@code sink}, in subtask order; empty when none runs. */
  static List<Subtask> of(JobDetail job, KafkaStatus.SinkTransactions sink, long nowMillis) {
    Map<String, KafkaStatus.Transaction> onBroker = new HashMap<>();
    sink.transactions().forEach(t -> onBroker.put(t.transactionalId(), t));
    List<Subtask> subtasks = new ArrayList<>();
    for (TaskView task : job.tasks()) {
      for (SubtaskView subtask : task.subtasks()) {
        for (SubtaskView.OperatorCounts operator : subtask.operators()) {
          if (operator.uid().equals(sink.operatorUid())) {
            subtasks.add(subtaskOf(subtask.index(), operator.transactions(), onBroker, nowMillis));
          }
        }
      }
    }
    return subtasks;
  }

  /** The open and pending transactions over every subtask of the Kafka sink {@code sink}. */
  static Map<TransactionView.Stage, Long> countByStage(
      JobDetail job, KafkaStatus.SinkTransactions sink) {
    Map<TransactionView.Stage, Long> counts = new EnumMap<>(TransactionView.Stage.class);
    for (TransactionView.Stage stage : TransactionView.Stage.values()) {
      counts.put(stage, 0L);
    }
    for (TaskView task : job.tasks()) {
      for (SubtaskView subtask : task.subtasks()) {
        for (SubtaskView.OperatorCounts operator : subtask.operators()) {
          if (operator.uid().equals(sink.operatorUid())) {
            operator.transactions().forEach(t -> counts.merge(t.stage(), 1L, Long::sum));
          }
        }
      }
    }
    return counts;
  }

  private static Subtask subtaskOf(
      int index,
      List<TransactionView> transactions,
      Map<String, KafkaStatus.Transaction> onBroker,
      long nowMillis) {
    Transaction open = null;
    List<Transaction> pending = new ArrayList<>();
    for (TransactionView view : transactions) {
      Transaction transaction = transactionOf(view, onBroker.get(view.transaction()), nowMillis);
      if (view.stage() == TransactionView.Stage.OPEN) {
        open = transaction;
      } else {
        pending.add(transaction);
      }
    }
    return new Subtask(index, open, pending);
  }

  private static Transaction transactionOf(
      TransactionView view, KafkaStatus.Transaction broker, long nowMillis) {
    return new Transaction(
        view.transaction(),
        view.stage() == TransactionView.Stage.PENDING ? view.checkpointId() : null,
        broker == null ? -1 : broker.producerId(),
        broker == null ? -1 : broker.producerEpoch(),
        Math.max(0, nowMillis - view.beginMillis()),
        view.records(),
        broker == null ? null : broker.state());
  }
}

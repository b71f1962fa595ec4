package io.weir.kafka.monitor;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.kafka.sink.KafkaSinkEndpoint;
import io.weir.kafka.source.KafkaSourceEndpoint;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import io.weir.kafka.transaction.TransactionalIds;
import io.weir.runtime.monitor.KafkaMonitor;
import io.weir.runtime.monitor.KafkaStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks the brokers of a job's Kafka sources and sinks where they stand: each exactly-once sink's
 * open transactions (by its transactional id prefix) and each source partition's committed
 * position, last stable offset and lag. Keeps one set of admin clients per client configuration
 * until closed. Thread safe.
 */
public final class KafkaJobMonitor implements KafkaMonitor {
  private final Map<Map<String, Object>, LingeringTransactions> transactionClients =
      new ConcurrentHashMap<>();
  private final Map<Map<String, Object>, SourcePositions> positionClients =
      new ConcurrentHashMap<>();
  private volatile boolean closed;

  @Override
  public KafkaStatus status(List<Transformation> operators) {
    List<KafkaStatus.SinkTransactions> sinks = new ArrayList<>();
    List<KafkaStatus.SourcePartition> partitions = new ArrayList<>();
    List<String> errors = new ArrayList<>();
    for (Transformation operator : operators) {
      try {
        if (operator.spec() instanceof OperatorSpec.Sink sink) {
          KafkaSinkEndpoint.of(sink.function())
              .ifPresent(endpoint -> sinks.add(transactionsOf(operator, endpoint)));
        } else if (operator.spec() instanceof OperatorSpec.Source source) {
          KafkaSourceEndpoint.of(source.function())
              .ifPresent(endpoint -> partitions.addAll(positionsOf(operator, endpoint)));
        }
      } catch (RuntimeException e) {
        errors.add(operator.displayName() + ": " + e.getMessage());
      }
    }
    return new KafkaStatus(sinks, partitions, errors.isEmpty() ? null : String.join("; ", errors));
  }

  private KafkaStatus.SinkTransactions transactionsOf(
      Transformation operator, KafkaSinkEndpoint endpoint) {
    checkOpen();
    LingeringTransactions client =
        transactionClients.computeIfAbsent(endpoint.clientConfig(), LingeringTransactions::new);
    Pattern ids = TransactionalIds.of(endpoint.transactionalIdPrefix());
    Instant now = Instant.now();
    List<KafkaStatus.Transaction> transactions = new ArrayList<>();
    for (OpenTransaction open : client.list(ids)) {
      Matcher id = ids.matcher(open.transactionalId());
      transactions.add(
          new KafkaStatus.Transaction(
              open.transactionalId(),
              id.matches() ? subtaskOf(id.group(1)) : -1,
              open.producerId(),
              open.producerEpoch(),
              open.state(),
              open.age(now).map(age -> age.toMillis()).orElse(-1L),
              open.partitions().stream().map(Object::toString).sorted().toList()));
    }
    return new KafkaStatus.SinkTransactions(
        operator.uid(),
        operator.displayName(),
        endpoint.topic(),
        endpoint.transactionalIdPrefix(),
        transactions);
  }

  private List<KafkaStatus.SourcePartition> positionsOf(
      Transformation operator, KafkaSourceEndpoint endpoint) {
    checkOpen();
    SourcePositions client =
        positionClients.computeIfAbsent(endpoint.clientConfig(), SourcePositions::new);
    return client.partitions(operator.uid(), operator.displayName(), endpoint);
  }

  /** The subtask of an id's digits, or -1 when they are too many for one. */
  private static int subtaskOf(String digits) {
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("The Kafka monitor is closed");
    }
  }

  @Override
  public void close() {
    closed = true;
    transactionClients.values().forEach(LingeringTransactions::close);
    positionClients.values().forEach(SourcePositions::close);
    transactionClients.clear();
    positionClients.clear();
  }
}

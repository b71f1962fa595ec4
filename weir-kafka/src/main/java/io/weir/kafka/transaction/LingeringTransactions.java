package io.weir.kafka.transaction;

import io.weir.kafka.ClientDefaults;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTransactionsOptions;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.TransactionalIdNotFoundException;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Finds open transactions by transactional-id prefix and aborts those nobody will commit (left by a
 * crashed job that starts fresh), so that read_committed readers are not held back until the
 * broker's timeout. Aborting initialises a producer with the transactional id: the broker fences
 * the old producer and aborts its transaction.
 *
 * <p>Not thread-safe; close it to release its Admin client. A broker that does not answer within
 * the short timeouts gives {@link BrokerUnreachableException} naming the address.
 */
public final class LingeringTransactions implements AutoCloseable {
  private static final int TIMEOUT_MS = 10_000;
  private static final List<TransactionState> OPEN_STATES =
      List.of(
          TransactionState.ONGOING,
          TransactionState.PREPARE_COMMIT,
          TransactionState.PREPARE_ABORT,
          TransactionState.PREPARE_EPOCH_FENCE);

  private final Map<String, Object> clientConfig;
  private final String bootstrapServers;
  private final Admin admin;

  /** {@code clientConfig} holds at least {@code bootstrap.servers} (and any security settings). */
  public LingeringTransactions(Map<String, Object> clientConfig) {
    this.clientConfig = new HashMap<>(clientConfig);
    this.clientConfig.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS / 2);
    this.clientConfig.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
    ClientDefaults.applyTo(this.clientConfig);
    this.bootstrapServers =
        String.valueOf(clientConfig.get(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG));
    try {
      this.admin = Admin.create(this.clientConfig);
    } catch (KafkaException e) {
      throw new BrokerUnreachableException(bootstrapServers, "connecting", e);
    }
  }

  /**
   * Open transactions whose transactional id starts with {@code prefix}, oldest first: for showing
   * them to people. To select the ids of one sink, match them exactly ({@link #list(Pattern)},
   * {@link TransactionalIds}): a prefix takes in the ids of every other prefix it starts.
   */
  public List<OpenTransaction> list(String prefix) {
    return list(transactionalId -> transactionalId.startsWith(prefix));
  }

  /** Open transactions whose transactional id matches {@code ids} exactly, oldest first. */
  public List<OpenTransaction> list(Pattern ids) {
    return list(transactionalId -> ids.matcher(transactionalId).matches());
  }

  /**
   * Aborts every open transaction whose transactional id matches {@code ids} exactly (a pattern,
   * not a prefix: the ids of sink {@code orders} must not take in those of sink {@code orders-1}).
   *
   * @return the transactions that were aborted
   */
  public List<OpenTransaction> abortMatching(Pattern ids) {
    return abortWhere(transactionalId -> ids.matcher(transactionalId).matches());
  }

  /**
   * Aborts every open transaction whose whole transactional id {@code ids} accepts.
   *
   * @return the transactions that were aborted
   */
  public List<OpenTransaction> abortWhere(Predicate<String> ids) {
    List<OpenTransaction> aborted = new ArrayList<>();
    for (OpenTransaction transaction : list(ids)) {
      abort(transaction.transactionalId());
      aborted.add(transaction);
    }
    return aborted;
  }

  private List<OpenTransaction> list(Predicate<String> selected) {
    Collection<TransactionListing> listings =
        await(
            admin.listTransactions(new ListTransactionsOptions().filterStates(OPEN_STATES)).all(),
            "listing transactions");
    List<OpenTransaction> open = new ArrayList<>();
    for (TransactionListing listing : listings) {
      if (selected.test(listing.transactionalId())) {
        describe(listing.transactionalId()).ifPresent(open::add);
      }
    }
    open.sort(
        Comparator.comparing(
                (OpenTransaction transaction) -> transaction.startTime().orElse(Instant.MAX))
            .thenComparing(OpenTransaction::transactionalId));
    return open;
  }

  /**
   * Aborts the open transaction of {@code transactionalId}, if any, by initialising a producer with
   * it (which also fences every older producer of that id). Idempotent.
   */
  public void abort(String transactionalId) {
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.remove(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, TIMEOUT_MS);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      producer.initTransactions();
    } catch (TimeoutException e) {
      throw new BrokerUnreachableException(
          bootstrapServers, "aborting transactional id " + transactionalId, e);
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }

  private Optional<OpenTransaction> describe(String transactionalId) {
    TransactionDescription description;
    try {
      description =
          await(
              admin.describeTransactions(List.of(transactionalId)).description(transactionalId),
              "describing transactional id " + transactionalId);
    } catch (TransactionalIdNotFoundException e) {
      return Optional.empty(); // expired between listing and describing
    }
    if (!OPEN_STATES.contains(description.state())) {
      return Optional.empty();
    }
    return Optional.of(
        new OpenTransaction(
            transactionalId,
            description.producerId(),
            description.producerEpoch(),
            description.state().toString(),
            description.transactionStartTimeMs().stream()
                .mapToObj(Instant::ofEpochMilli)
                .findFirst(),
            Duration.ofMillis(description.transactionTimeoutMs()),
            description.topicPartitions(),
            description.coordinatorId()));
  }

  private <T> T await(KafkaFuture<T> future, String action) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("interrupted while " + action, e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TimeoutException) {
        throw new BrokerUnreachableException(bootstrapServers, action, e.getCause());
      }
      if (e.getCause() instanceof KafkaException kafkaError) {
        throw kafkaError;
      }
      throw new KafkaException(action + " failed", e.getCause());
    }
  }
}

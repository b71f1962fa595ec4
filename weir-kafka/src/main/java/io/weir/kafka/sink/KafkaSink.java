package io.weir.kafka.sink;

import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Writes a stream to a Kafka topic with a chosen {@link DeliveryGuarantee}:
 *
 * <pre>{@code
 * stream.addSink(KafkaSink.<String>builder()
 *     .bootstrapServers("127.0.0.1:9092").topic("bar")
 *     .serializer(KafkaRecordSerializer.utf8())
 *     .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
 *     .transactionalIdPrefix("seed")
 *     .build());
 * }</pre>
 *
 * Exactly-once needs checkpoints: records become visible to {@code read_committed} readers when the
 * checkpoint after them completes. The transaction timeout (default 15 minutes, the broker's
 * default maximum) bounds how long a job may be down before the broker aborts its pending
 * transactions, which is reported as data loss on restore.
 */
public final class KafkaSink {
  private KafkaSink() {}

  public static <T> Builder<T> builder() {
    return new Builder<>();
  }

  /** Settings of a Kafka sink. */
  public static final class Builder<T> {
    private String bootstrapServers;
    private String topic;
    private KafkaRecordSerializer<T> serializer = KafkaRecordSerializer.utf8();
    private DeliveryGuarantee guarantee = DeliveryGuarantee.EXACTLY_ONCE;
    private String transactionalIdPrefix;
    private Duration transactionTimeout = Duration.ofMinutes(15);
    private int poolSize = 5;
    private Duration checkpointInterval;
    private Duration startTimeout = Duration.ofSeconds(60);
    // Kafka's default request timeout: the wait is for one marker write per partition.
    private Duration readableAtEndTimeout = Duration.ofSeconds(30);
    private final Map<String, String> properties = new HashMap<>();

    public Builder<T> bootstrapServers(String servers) {
      this.bootstrapServers = servers;
      return this;
    }

    public Builder<T> topic(String topic) {
      this.topic = topic;
      return this;
    }

    public Builder<T> serializer(KafkaRecordSerializer<T> serializer) {
      this.serializer = serializer;
      return this;
    }

    public Builder<T> deliveryGuarantee(DeliveryGuarantee guarantee) {
      this.guarantee = guarantee;
      return this;
    }

    /** Transactional ids are {@code <prefix>-<subtask>-<n>}; keep it unique per sink and job. */
    public Builder<T> transactionalIdPrefix(String prefix) {
      this.transactionalIdPrefix = prefix;
      return this;
    }

    public Builder<T> transactionTimeout(Duration timeout) {
      this.transactionTimeout = timeout;
      return this;
    }

    /**
     * How many transactional ids each subtask may hold at once (default 5): the open transaction's
     * and those of transactions waiting for their commit. While commits keep up a subtask uses two.
     */
    public Builder<T> transactionalIdPoolSize(int size) {
      if (size < 2) {
        throw new IllegalArgumentException("A transactional id pool needs at least 2 ids");
      }
      this.poolSize = size;
      return this;
    }

    /**
     * The job's checkpoint interval, if known: an exactly-once sink warns at start when its
     * transaction timeout is less than twice this, since the broker may then abort transactions
     * that only wait for their checkpoint.
     */
    public Builder<T> checkpointInterval(Duration interval) {
      this.checkpointInterval = interval;
      return this;
    }

    /**
     * How long a restored job's recovery step waits for the brokers before it fails the job for
     * good with one line (default 60 s), instead of restarting for ever while they are down.
     */
    public Builder<T> startTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("The Kafka sink's start timeout must be positive");
      }
      this.startTimeout = timeout;
      return this;
    }

    /**
     * How long an exactly-once sink's subtask, when the job finishes or stops with a savepoint,
     * waits after its last commit until {@code read_committed} readers can read all it committed
     * (default 30 s): the brokers write a commit's markers a moment after the commit returned. Past
     * it the job ends anyway with a warning; the records are committed and become readable once the
     * markers land, or once another producer's open transaction on the same partitions ends. Zero:
     * no wait.
     */
    public Builder<T> readableAtEndTimeout(Duration timeout) {
      if (timeout.isNegative()) {
        throw new IllegalArgumentException(
            "The Kafka sink's readable-at-end timeout must not be negative");
      }
      this.readableAtEndTimeout = timeout;
      return this;
    }

    public Builder<T> property(String key, String value) {
      properties.put(key, value);
      return this;
    }

    public SinkFunction<T> build() {
      KafkaSinkConfig<T> config = config();
      return guarantee == DeliveryGuarantee.EXACTLY_ONCE
          ? new TransactionalKafkaSink<>(config)
          : new FlushingKafkaSink<>(config);
    }

    /**
     * The exactly-once sink, whatever the delivery guarantee says, as the two-phase-commit function
     * it is: for a connector that drives a sink inside its own operator (the Kafka source's
     * dead-letter topic) through snapshot, notification and the job's recovery step.
     */
    public TwoPhaseCommitSinkFunction<T, ?, ?> buildTransactional() {
      guarantee = DeliveryGuarantee.EXACTLY_ONCE;
      return new TransactionalKafkaSink<>(config());
    }

    private KafkaSinkConfig<T> config() {
      Objects.requireNonNull(bootstrapServers, "bootstrapServers");
      Objects.requireNonNull(topic, "topic");
      if (guarantee == DeliveryGuarantee.EXACTLY_ONCE && transactionalIdPrefix == null) {
        throw new IllegalArgumentException(
            "An exactly-once Kafka sink needs a transactional id prefix (transactionalIdPrefix)");
      }
      return new KafkaSinkConfig<>(
          bootstrapServers,
          topic,
          serializer,
          guarantee,
          transactionalIdPrefix,
          transactionTimeout,
          poolSize,
          checkpointInterval,
          Map.copyOf(properties),
          startTimeout,
          readableAtEndTimeout);
    }
  }
}

package io.weir.kafka.source;

import io.weir.api.eventtime.WatermarkStrategy;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** Builds a {@link KafkaSource}; bootstrap servers, topics and a deserializer are required. */
public final class KafkaSourceBuilder<T> {
  private String bootstrapServers;
  private List<String> topics;
  private String topicPattern;
  private String groupId;
  private KafkaRecordDeserializer<T> deserializer;
  private StartingOffsets startingOffsets = StartingOffsets.EARLIEST;
  private long startingTimestamp;
  private boolean commitOffsetsOnCheckpoint = true;
  private WatermarkStrategy<T> watermarkStrategy;
  private DeserializationFailurePolicy failurePolicy = DeserializationFailurePolicy.FAIL;
  private OutOfRangePolicy outOfRangePolicy = OutOfRangePolicy.FAIL;
  private RecreatedTopicPolicy recreatedTopicPolicy = RecreatedTopicPolicy.FAIL;
  private Duration startTimeout = Duration.ofSeconds(60);
  private Duration partitionDiscoveryInterval = Duration.ofSeconds(10);
  private boolean bounded;
  private final Map<String, String> consumerProperties = new HashMap<>();
  private String deadLetterTopic;
  private int deadLetterFailures;
  private String deadLetterTransactionalIdPrefix;
  private Duration deadLetterTransactionTimeout = Duration.ofMinutes(15);

  KafkaSourceBuilder() {}

  public KafkaSourceBuilder<T> bootstrapServers(String servers) {
    this.bootstrapServers = servers;
    return this;
  }

  public KafkaSourceBuilder<T> topics(String... names) {
    this.topics = List.of(names);
    return this;
  }

  /** Reads every topic whose name matches the regular expression, also ones created later. */
  public KafkaSourceBuilder<T> topicPattern(String regex) {
    this.topicPattern = regex;
    return this;
  }

  /** The consumer group whose offsets the source starts from and commits to. */
  public KafkaSourceBuilder<T> groupId(String groupId) {
    this.groupId = groupId;
    return this;
  }

  public KafkaSourceBuilder<T> deserializer(KafkaRecordDeserializer<T> deserializer) {
    this.deserializer = deserializer;
    return this;
  }

  /**
   * Where partitions without a checkpointed or committed offset start when the job starts afresh.
   * Default: earliest. Partitions added later start at the earliest offset, whether the running job
   * discovers them or a restored one finds them missing from its checkpoint.
   */
  public KafkaSourceBuilder<T> startingOffsets(StartingOffsets offsets) {
    this.startingOffsets = offsets;
    return this;
  }

  public KafkaSourceBuilder<T> startingTimestamp(long epochMillis) {
    this.startingOffsets = StartingOffsets.TIMESTAMP;
    this.startingTimestamp = epochMillis;
    return this;
  }

  /** Commit each completed checkpoint's offsets to the group (on by default). */
  public KafkaSourceBuilder<T> commitOffsetsOnCheckpoint(boolean commit) {
    this.commitOffsetsOnCheckpoint = commit;
    return this;
  }

  /** Per-partition timestamps and watermarks. */
  public KafkaSourceBuilder<T> watermarks(WatermarkStrategy<T> strategy) {
    this.watermarkStrategy = strategy;
    return this;
  }

  public KafkaSourceBuilder<T> onDeserializationFailure(DeserializationFailurePolicy policy) {
    this.failurePolicy = policy;
    return this;
  }

  /**
   * What to do when the next offset to read is no longer in the log (deleted by retention): fail
   * the job naming partition, offset and earliest available offset (default), or go on from the
   * earliest available offset, counting what was skipped.
   */
  public KafkaSourceBuilder<T> onOutOfRange(OutOfRangePolicy policy) {
    this.outOfRangePolicy = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * What a restored source does with a topic deleted and created again since its checkpoint (its
   * topic id changed, so the checkpoint's offsets point into a log that is gone): fail the job
   * naming the topic and both ids (default), or read the new topic from its earliest offset.
   */
  public KafkaSourceBuilder<T> onRecreatedTopic(RecreatedTopicPolicy policy) {
    this.recreatedTopicPolicy = Objects.requireNonNull(policy, "policy");
    return this;
  }

  /**
   * How long the source waits for the brokers when it starts (default 60 s); a job whose brokers do
   * not answer within it fails, naming the bootstrap servers, instead of restarting for ever.
   */
  public KafkaSourceBuilder<T> startTimeout(Duration timeout) {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("The Kafka source's start timeout must be positive");
    }
    this.startTimeout = timeout;
    return this;
  }

  public KafkaSourceBuilder<T> partitionDiscoveryInterval(Duration interval) {
    this.partitionDiscoveryInterval = interval;
    return this;
  }

  /**
   * Stops at the end offsets (read committed) the partitions had when the job first started; a job
   * restored from its checkpoint stops at the same ones.
   */
  public KafkaSourceBuilder<T> bounded() {
    this.bounded = true;
    return this;
  }

  public KafkaSourceBuilder<T> property(String key, String value) {
    consumerProperties.put(key, value);
    return this;
  }

  /**
   * Sends a record whose processing in the source's task (a chained function, a key selector)
   * failed the job {@code failures} times at the same partition and offset to {@code topic} instead
   * of failing the job for good, and a record the deserializer cannot read there at once (unless
   * {@link #onDeserializationFailure} says {@code SKIP}), exactly once with the rest of the job's
   * output: in a Kafka transaction committed with the checkpoint that covers the skipped offset.
   * The dead letter carries the record's key and value, and headers {@code weir.topic}, {@code
   * weir.partition}, {@code weir.offset}, {@code weir.operator} and {@code weir.cause}. Use the
   * job's {@code failuresPerRecord} for {@code failures} (default 3); the topic must exist.
   */
  public KafkaSourceBuilder<T> deadLetterTopic(String topic, int failures) {
    if (topic == null || topic.isBlank()) {
      throw new IllegalArgumentException("A dead-letter topic needs a name");
    }
    if (failures < 1) {
      throw new IllegalArgumentException(
          "Records go to the dead-letter topic after at least 1 failure, not " + failures);
    }
    this.deadLetterTopic = topic;
    this.deadLetterFailures = failures;
    return this;
  }

  /**
   * The transactional id prefix of the dead-letter producer (default {@code
   * weir-dead-letters-<group>-<topic>}); keep it unique per job and source.
   */
  public KafkaSourceBuilder<T> deadLetterTransactionalIdPrefix(String prefix) {
    this.deadLetterTransactionalIdPrefix = prefix;
    return this;
  }

  /**
   * How long a dead letter's transaction may stay open before the broker aborts it (default 15
   * minutes, the broker's default maximum): as for a Kafka sink, the longest the job may be down
   * between the dead letter's checkpoint and its commit.
   */
  public KafkaSourceBuilder<T> deadLetterTransactionTimeout(Duration timeout) {
    this.deadLetterTransactionTimeout = timeout;
    return this;
  }

  private DeadLetterConfig deadLetters() {
    if (deadLetterTopic == null) {
      return null;
    }
    String prefix =
        deadLetterTransactionalIdPrefix != null
            ? deadLetterTransactionalIdPrefix
            : "weir-dead-letters-" + (groupId == null ? "" : groupId + "-") + deadLetterTopic;
    return new DeadLetterConfig(
        deadLetterTopic, deadLetterFailures, prefix, deadLetterTransactionTimeout);
  }

  public KafkaSource<T> build() {
    Objects.requireNonNull(bootstrapServers, "bootstrapServers");
    Objects.requireNonNull(deserializer, "deserializer");
    if ((topics == null || topics.isEmpty()) == (topicPattern == null)) {
      throw new IllegalArgumentException("A Kafka source needs either topics or a topic pattern");
    }
    if (consumerProperties.containsKey("auto.offset.reset")) {
      throw new IllegalArgumentException(
          "The Kafka source does not use auto.offset.reset: set startingOffsets(...) for where"
              + " new partitions start and onOutOfRange(...) for offsets no longer in the log");
    }
    if (commitOffsetsOnCheckpoint && groupId == null) {
      throw new IllegalArgumentException(
          "A Kafka source that commits offsets needs a group id (groupId(...))");
    }
    return new KafkaSource<>(
        new KafkaSourceConfig<>(
            bootstrapServers,
            topics == null ? List.of() : topics,
            topicPattern,
            groupId,
            deserializer,
            startingOffsets,
            startingTimestamp,
            commitOffsetsOnCheckpoint,
            watermarkStrategy,
            failurePolicy,
            outOfRangePolicy,
            recreatedTopicPolicy,
            startTimeout,
            partitionDiscoveryInterval,
            bounded,
            Map.copyOf(consumerProperties),
            deadLetters()));
  }
}

package io.weir.examples;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.source.GeneratorSource;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.source.KafkaRecordDeserializer;
import io.weir.kafka.source.KafkaSource;
import io.weir.kafka.source.KafkaSourceBuilder;
import io.weir.runtime.sink.file.FileSink;
import java.time.Duration;

/**
 * The job of the seed documents: {@code Kafka source("foo") -> keyBy(word) -> map(frequency+1) ->
 * Kafka sink("bar", EXACTLY_ONCE)}. With {@code --chained} the keyBy is left out and the whole job
 * is one task, so the sink is notified of a completed checkpoint before the source. Without {@code
 * --bootstrap} it reads generated records and writes them to files exactly once with {@code
 * --output-dir}, or discards them. With {@code --dead-letter-topic T} a record that failed the job
 * three times at the same offset goes to T, exactly once with the output. With {@code
 * --record-delay-micros D} the map takes at least D microseconds a record, a deliberately slow
 * operator for backpressure runs. With {@code --twin-output-topic T --twin-transactional-id-prefix
 * P} a second Kafka sink ("Twin Sink") writes the same records to T under its own transactional
 * ids: two sinks of one job that must never settle or prove each other's transactions, whatever
 * their prefixes look like.
 */
public final class SeedJob {
  private SeedJob() {}

  public static void main(String[] args) throws Exception {
    SeedJobOptions options = SeedJobOptions.parse(args);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    build(env, options);
    env.execute(options.chained() ? "seed-chained" : "seed");
  }

  /** Adds the seed job's operators to {@code env}. */
  public static void build(StreamEnvironment env, SeedJobOptions options) {
    env.enableCheckpointing(options.checkpointInterval());
    configure(env.config(), options);
    DataStream<String> input = input(env, options).name("Example Source").uid("example-source");
    long delayNanos = options.recordDelayMicros() * 1_000;
    MapFunction<String, String> map =
        delayNanos > 0
            ? record -> SeedRecords.incrementFrequencySlowly(record, delayNanos)
            : SeedRecords::incrementFrequency;
    DataStream<String> mapped =
        options.chained() ? input.map(map) : input.keyBy(SeedRecords::word).map(map);
    mapped.name("Map").uid("map").addSink(sink(options)).name("Example Sink").uid("example-sink");
    if (options.twinOutputTopic() != null) {
      mapped
          .addSink(
              kafkaSink(options, options.twinOutputTopic(), options.twinTransactionalIdPrefix()))
          .name("Twin Sink")
          .uid("twin-sink");
    }
  }

  /** The options that {@code weir run} would otherwise set; absent ones leave the config alone. */
  public static void configure(JobConfig config, SeedJobOptions options) {
    if (options.checkpointDirectory() != null) {
      config.checkpointDirectory(options.checkpointDirectory());
    }
    if (options.fromCheckpoint() != null) {
      config.restorePath(options.fromCheckpoint());
    }
    if (options.fresh()) {
      config.fresh(true);
    }
    if (options.parallelism() > 0) {
      config.parallelism(options.parallelism());
    }
    if (options.notifyOrder() != null) {
      config.notifyOrder(options.notifyOrder());
    }
    if (options.transactionTimeout() != null && config.checkpointInterval() != null) {
      fitCheckpointTimeout(config, options.transactionTimeout());
    }
  }

  /**
   * A transaction timeout given to the seed also shortens its checkpoint timeout where needed, so
   * that a checkpoint and a restart fit in the share of it the sinks allow (the job refuses to
   * build otherwise); a timeout too short even for that is left to the refusal.
   */
  private static void fitCheckpointTimeout(JobConfig config, Duration transactionTimeout) {
    long left =
        (long) (transactionTimeout.toMillis() * TwoPhaseCommitOptions.AGE_LIMIT_RATIO)
            - config.checkpointInterval().toMillis()
            - config.restartStrategy().restartBudget().toMillis();
    if (left > 0 && left < config.checkpointTimeout().toMillis()) {
      config.checkpointTimeout(Duration.ofMillis(left));
    }
  }

  /** The seed's input: Kafka with {@code --bootstrap}, else generated records. */
  public static DataStream<String> input(StreamEnvironment env, SeedJobOptions options) {
    if (options.readsKafka()) {
      return env.addSource(kafkaInput(options, options.inputTopic(), options.group()).build());
    }
    return env.addSource(
        new GeneratorSource<>(options.records(), SeedRecords::generate, options.ratePerSecond()));
  }

  /**
   * The seed's Kafka source as {@code options} set it up, reading {@code topic} as {@code group}.
   */
  static KafkaSourceBuilder<String> kafkaInput(SeedJobOptions options, String topic, String group) {
    KafkaSourceBuilder<String> kafka =
        KafkaSource.<String>builder()
            .bootstrapServers(options.bootstrap())
            .topics(topic)
            .groupId(group)
            .deserializer(KafkaRecordDeserializer.utf8Values())
            .onDeserializationFailure(options.onBadRecord())
            .onOutOfRange(options.onOutOfRange())
            .onRecreatedTopic(options.onRecreatedTopic())
            .startingOffsets(options.startingOffsetsPolicy())
            .startTimeout(options.startTimeout());
    if (options.bounded()) {
      kafka.bounded();
    }
    if (options.partitionDiscoveryInterval() != null) {
      kafka.partitionDiscoveryInterval(options.partitionDiscoveryInterval());
    }
    if (options.deadLetterTopic() != null) {
      kafka
          .deadLetterTopic(options.deadLetterTopic(), JobConfig.DEFAULT_FAILURES_PER_RECORD)
          .deadLetterTransactionalIdPrefix(options.transactionalIdPrefix() + "-dead-letters");
      if (options.transactionTimeout() != null) {
        kafka.deadLetterTransactionTimeout(options.transactionTimeout());
      }
    }
    return kafka;
  }

  static SinkFunction<String> sink(SeedJobOptions options) {
    if (options.readsKafka()) {
      return kafkaSink(options, options.outputTopic(), options.transactionalIdPrefix());
    }
    if (options.outputDirectory() != null) {
      return FileSink.<String>forDirectory(options.outputDirectory()).build();
    }
    return new DiscardingSink<>();
  }

  private static SinkFunction<String> kafkaSink(
      SeedJobOptions options, String topic, String transactionalIdPrefix) {
    KafkaSink.Builder<String> kafka =
        KafkaSink.<String>builder()
            .bootstrapServers(options.bootstrap())
            .topic(topic)
            .deliveryGuarantee(options.deliveryGuarantee())
            .transactionalIdPrefix(transactionalIdPrefix)
            .checkpointInterval(options.checkpointInterval())
            .startTimeout(options.startTimeout());
    if (options.transactionTimeout() != null) {
      kafka.transactionTimeout(options.transactionTimeout());
    }
    return kafka.build();
  }
}

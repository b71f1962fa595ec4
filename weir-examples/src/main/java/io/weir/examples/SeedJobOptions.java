package io.weir.examples;

import io.weir.api.checkpoint.NotifyOrder;
import io.weir.kafka.sink.DeliveryGuarantee;
import io.weir.kafka.source.DeserializationFailurePolicy;
import io.weir.kafka.source.OutOfRangePolicy;
import io.weir.kafka.source.RecreatedTopicPolicy;
import io.weir.kafka.source.StartingOffsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The seed job's arguments, {@code --name value} or {@code --flag}. Unknown or malformed arguments
 * fail with one line naming the argument. {@code --checkpoint-dir}, {@code --from-checkpoint},
 * {@code --fresh}, {@code --parallelism} and {@code --notify-order} mean what they mean to {@code
 * weir run}; they let the job be started as a plain {@code main}, e.g. by a test in another JVM.
 */
public record SeedJobOptions(
    boolean chained,
    boolean bounded,
    long records,
    long ratePerSecond,
    String bootstrap,
    String inputTopic,
    String outputTopic,
    String group,
    String semantic,
    Duration checkpointInterval,
    Path outputDirectory,
    String transactionalIdPrefix,
    Path checkpointDirectory,
    Path fromCheckpoint,
    boolean fresh,
    int parallelism,
    NotifyOrder notifyOrder,
    String badRecordPolicy,
    String outOfRangePolicy,
    String startingOffsets,
    Duration startTimeout,
    String deadLetterTopic,
    Duration transactionTimeout,
    Duration partitionDiscoveryInterval,
    String recreatedTopicPolicy,
    long recordDelayMicros,
    String twinOutputTopic,
    String twinTransactionalIdPrefix) {

  private static final Set<String> FLAGS = Set.of("chained", "bounded", "fresh");
  private static final Set<String> VALUES =
      Set.of(
          "records",
          "rate",
          "bootstrap",
          "input-topic",
          "output-topic",
          "group",
          "semantic",
          "checkpoint-interval",
          "output-dir",
          "transactional-id-prefix",
          "on-bad-record",
          "checkpoint-dir",
          "from-checkpoint",
          "parallelism",
          "notify-order",
          "on-out-of-range",
          "starting-offsets",
          "start-timeout",
          "dead-letter-topic",
          "transaction-timeout",
          "partition-discovery-interval",
          "on-recreated-topic",
          "record-delay-micros",
          "twin-output-topic",
          "twin-transactional-id-prefix");

  public static SeedJobOptions parse(String... args) {
    Map<String, String> values = new HashMap<>();
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      if (!arg.startsWith("--")) {
        throw new IllegalArgumentException("Unexpected argument '" + arg + "' for the seed job");
      }
      String name = arg.substring(2);
      if (FLAGS.contains(name)) {
        values.put(name, "true");
      } else if (VALUES.contains(name)) {
        if (i + 1 >= args.length) {
          throw new IllegalArgumentException("Option --" + name + " needs a value");
        }
        values.put(name, args[++i]);
      } else {
        throw new IllegalArgumentException("Unknown option --" + name + " for the seed job");
      }
    }
    return new SeedJobOptions(
        values.containsKey("chained"),
        values.containsKey("bounded"),
        number(values, "records", 100_000),
        number(values, "rate", 0),
        values.get("bootstrap"),
        values.getOrDefault("input-topic", "foo"),
        values.getOrDefault("output-topic", "bar"),
        values.getOrDefault("group", "weir-seed"),
        values.getOrDefault("semantic", "exactly-once"),
        Duration.ofMillis(number(values, "checkpoint-interval", 1000)),
        path(values, "output-dir"),
        values.getOrDefault("transactional-id-prefix", "weir-seed"),
        path(values, "checkpoint-dir"),
        path(values, "from-checkpoint"),
        values.containsKey("fresh"),
        (int) number(values, "parallelism", 0),
        notifyOrder(values.get("notify-order")),
        values.getOrDefault("on-bad-record", "fail"),
        values.getOrDefault("on-out-of-range", "fail"),
        values.getOrDefault("starting-offsets", "earliest"),
        Duration.ofMillis(number(values, "start-timeout", 60_000)),
        values.get("dead-letter-topic"),
        values.containsKey("transaction-timeout")
            ? Duration.ofMillis(number(values, "transaction-timeout", 0))
            : null,
        values.containsKey("partition-discovery-interval")
            ? Duration.ofMillis(number(values, "partition-discovery-interval", 0))
            : null,
        values.getOrDefault("on-recreated-topic", "fail"),
        number(values, "record-delay-micros", 0),
        values.get("twin-output-topic"),
        twinPrefix(values));
  }

  /** A twin sink needs both its topic and its transactional id prefix, or neither. */
  private static String twinPrefix(Map<String, String> values) {
    String prefix = values.get("twin-transactional-id-prefix");
    if ((prefix == null) != (values.get("twin-output-topic") == null)) {
      throw new IllegalArgumentException(
          "Options --twin-output-topic and --twin-transactional-id-prefix go together");
    }
    return prefix;
  }

  private static Path path(Map<String, String> values, String name) {
    return values.containsKey(name) ? Path.of(values.get(name)) : null;
  }

  private static NotifyOrder notifyOrder(String value) {
    if (value == null) {
      return null;
    }
    try {
      return NotifyOrder.valueOf(value.toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "Option --notify-order needs reverse or forward, got '" + value + "'");
    }
  }

  private static long number(Map<String, String> values, String name, long defaultValue) {
    String value = values.get(name);
    if (value == null) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "Option --" + name + " needs a number, got '" + value + "'");
    }
  }

  public DeliveryGuarantee deliveryGuarantee() {
    return switch (semantic) {
      case "exactly-once" -> DeliveryGuarantee.EXACTLY_ONCE;
      case "at-least-once" -> DeliveryGuarantee.AT_LEAST_ONCE;
      case "none" -> DeliveryGuarantee.NONE;
      default ->
          throw new IllegalArgumentException(
              "Option --semantic takes exactly-once, at-least-once or none, got '"
                  + semantic
                  + "'");
    };
  }

  /**
   * What the Kafka source does with a record it cannot read: {@code fail} (default) or {@code
   * skip}.
   */
  public DeserializationFailurePolicy onBadRecord() {
    return switch (badRecordPolicy) {
      case "fail" -> DeserializationFailurePolicy.FAIL;
      case "skip" -> DeserializationFailurePolicy.SKIP;
      default ->
          throw new IllegalArgumentException(
              "Option --on-bad-record takes fail or skip, got '" + badRecordPolicy + "'");
    };
  }

  /**
   * What the Kafka source does with an offset no longer in the log: {@code fail} (default) or
   * {@code earliest}.
   */
  public OutOfRangePolicy onOutOfRange() {
    return switch (outOfRangePolicy) {
      case "fail" -> OutOfRangePolicy.FAIL;
      case "earliest" -> OutOfRangePolicy.EARLIEST;
      default ->
          throw new IllegalArgumentException(
              "Option --on-out-of-range takes fail or earliest, got '" + outOfRangePolicy + "'");
    };
  }

  /**
   * What a restored Kafka source does with a topic deleted and created again since its checkpoint:
   * {@code fail} (default) or {@code earliest}.
   */
  public RecreatedTopicPolicy onRecreatedTopic() {
    return switch (recreatedTopicPolicy) {
      case "fail" -> RecreatedTopicPolicy.FAIL;
      case "earliest" -> RecreatedTopicPolicy.EARLIEST;
      default ->
          throw new IllegalArgumentException(
              "Option --on-recreated-topic takes fail or earliest, got '"
                  + recreatedTopicPolicy
                  + "'");
    };
  }

  /**
   * Where partitions without a checkpointed or committed offset start: {@code earliest} (default)
   * or {@code latest}.
   */
  public StartingOffsets startingOffsetsPolicy() {
    return switch (startingOffsets) {
      case "earliest" -> StartingOffsets.EARLIEST;
      case "latest" -> StartingOffsets.LATEST;
      default ->
          throw new IllegalArgumentException(
              "Option --starting-offsets takes earliest or latest, got '" + startingOffsets + "'");
    };
  }

  public boolean readsKafka() {
    return bootstrap != null;
  }
}

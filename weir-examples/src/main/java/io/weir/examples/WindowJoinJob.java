package io.weir.examples;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.JoinFunction;
import io.weir.api.windowing.TumblingEventTimeWindows;
import java.time.Duration;

/**
 * A keyed window join of two Kafka inputs: {@code Kafka source("foo") + Kafka source("foo-second")
 * -> join on word in tumbling event-time windows -> Kafka sink("bar", EXACTLY_ONCE)}. Both inputs
 * hold seed records ({@code word,frequency,timestamp}, the timestamp the record's id and its event
 * time); each pair of a first and a second record with the same word in the same window comes out
 * once, as {@code word,firstId,secondId}, when the window closes. So the committed output can be
 * checked against the pairs a plain loop over both inputs finds with the same windows ({@link
 * #WINDOW_SIZE}; a window closes once every partition of both inputs is {@link #OUT_OF_ORDERNESS}
 * past its end).
 *
 * <p>It takes the seed job's arguments ({@link SeedJobOptions}); the second input is the topic
 * named by {@code --input-topic} with {@link #SECOND_INPUT_SUFFIX}, read as the group named by
 * {@code --group} with the same suffix. {@code --chained} is ignored: a join needs its keyBy.
 */
public final class WindowJoinJob {
  /** The size of the tumbling windows, in event time. */
  public static final Duration WINDOW_SIZE = Duration.ofSeconds(2);

  /** How far behind the largest timestamp of a partition the watermark stays. */
  public static final Duration OUT_OF_ORDERNESS = Duration.ofSeconds(2);

  /** Appended to the first input's topic and group to name the second's. */
  public static final String SECOND_INPUT_SUFFIX = "-second";

  private WindowJoinJob() {}

  public static void main(String[] args) throws Exception {
    SeedJobOptions options = SeedJobOptions.parse(args);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    build(env, options);
    env.execute("window-join");
  }

  /** Adds the job's operators to {@code env}. */
  public static void build(StreamEnvironment env, SeedJobOptions options) {
    env.enableCheckpointing(options.checkpointInterval());
    SeedJob.configure(env.config(), options);
    DataStream<String> first =
        input(env, options, options.inputTopic(), options.group())
            .name("First Source")
            .uid("first-source");
    DataStream<String> second =
        input(
                env,
                options,
                options.inputTopic() + SECOND_INPUT_SUFFIX,
                options.group() + SECOND_INPUT_SUFFIX)
            .name("Second Source")
            .uid("second-source");
    first
        .join(second)
        .where(SeedRecords::word)
        .equalTo(SeedRecords::word)
        .window(TumblingEventTimeWindows.of(WINDOW_SIZE))
        .apply(new PairOfIds())
        .name("Window Join")
        .uid("window-join")
        .addSink(SeedJob.sink(options))
        .name("Example Sink")
        .uid("example-sink");
  }

  private static DataStream<String> input(
      StreamEnvironment env, SeedJobOptions options, String topic, String group) {
    WatermarkStrategy<String> eventTime =
        WatermarkStrategy.<String>forBoundedOutOfOrderness(OUT_OF_ORDERNESS)
            .withTimestampAssigner((record, previous) -> SeedRecords.timestamp(record));
    return env.addSource(SeedJob.kafkaInput(options, topic, group).watermarks(eventTime).build());
  }

  /** The row of one joined pair: {@code word,firstId,secondId}. */
  public static String row(String word, long firstId, long secondId) {
    return word + "," + firstId + "," + secondId;
  }

  /** Joins two records of one word into {@link #row}. */
  static final class PairOfIds implements JoinFunction<String, String, String> {
    @Override
    public String join(String first, String second) {
      return row(
          SeedRecords.word(first), SeedRecords.timestamp(first), SeedRecords.timestamp(second));
    }
  }
}

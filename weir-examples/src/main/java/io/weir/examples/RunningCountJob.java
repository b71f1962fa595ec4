package io.weir.examples;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/**
 * A stateful variant of the seed job: {@code Kafka source("foo") -> keyBy(word) -> running count ->
 * Kafka sink("bar", EXACTLY_ONCE)}. For each input record {@code word,frequency,id} it emits {@code
 * word,count,id}, where {@code count} is how many records of that word the job has seen, kept in
 * keyed state. So the committed output of a word whose input holds n records must hold the counts
 * 1..n, each once: a lost or replayed state shows as a missing or a repeated count.
 *
 * <p>It takes the seed job's arguments ({@link SeedJobOptions}); {@code --chained} is ignored,
 * since a running count needs the keyBy.
 */
public final class RunningCountJob {
  private RunningCountJob() {}

  public static void main(String[] args) throws Exception {
    SeedJobOptions options = SeedJobOptions.parse(args);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    build(env, options);
    env.execute("running-count");
  }

  /** Adds the job's operators to {@code env}. */
  public static void build(StreamEnvironment env, SeedJobOptions options) {
    env.enableCheckpointing(options.checkpointInterval());
    SeedJob.configure(env.config(), options);
    SeedJob.input(env, options)
        .name("Example Source")
        .uid("example-source")
        .keyBy(SeedRecords::word)
        .map(new RunningCount())
        .name("Running Count")
        .uid("running-count")
        .addSink(SeedJob.sink(options))
        .name("Example Sink")
        .uid("example-sink");
  }

  /** Counts the records of each word in keyed state; emits {@code word,count,id}. */
  static final class RunningCount extends RichMapFunction<String, String> {
    private transient ValueState<Long> count;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public String map(String record) {
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return SeedRecords.word(record) + "," + next + "," + SeedRecords.timestamp(record);
    }
  }
}

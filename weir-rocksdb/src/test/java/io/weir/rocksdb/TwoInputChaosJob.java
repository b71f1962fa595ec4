package io.weir.rocksdb;

import io.weir.api.datastream.BroadcastStream;
import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.KeyedStream;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.ProcessJoinFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.StateBackend;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Two-input jobs for kill tests, each with an exactly-once file sink and an output that does not
 * depend on how the two inputs interleave, so a plain loop gives the reference:
 *
 * <ul>
 *   <li>{@code co-process}: orders {@code 0..n-1} meet payments of a permutation of the first
 *       {@code paid} orders in a keyed co-process function; whichever of the two comes second emits
 *       {@code paid <order>}; the first waits in keyed state.
 *   <li>{@code join}: left and right records {@code 0..n-1} at event time = index, keyed by index
 *       modulo 3, joined in {@code [-3, +5]}.
 *   <li>{@code broadcast}: rules {@code 0..rules-1}, at event time = rule and slower than the
 *       records, are broadcast to every subtask; records {@code 0..n-1}, keyed by the rule they
 *       need (index modulo the number of rules), are written with their rule's text. A record whose
 *       rule has not come yet waits in keyed state for an event-time timer at the rule's time,
 *       which fires only once the rule is in broadcast state.
 * </ul>
 *
 * <p>Arguments: checkpoint directory, output directory, parallelism of the two-input operator,
 * kind, state backend. The sources run at parallelism 2 whatever the operator's.
 */
public final class TwoInputChaosJob {
  static final String NAME = "two-input-chaos";
  static final long RECORDS = 24_000;
  static final long PAID = 20_000;
  static final long LOWER = -3;
  static final long UPPER = 5;
  static final long RULES = 40;
  private static final long RULES_PER_SECOND = 5;
  private static final MapStateDescriptor<Long, String> RULE_TEXTS =
      new MapStateDescriptor<>("rules");
  private static final long RECORDS_PER_SECOND = 2_500;

  private TwoInputChaosJob() {}

  public static void main(String[] args) throws Exception {
    Path checkpoints = Path.of(args[0]);
    Path output = Path.of(args[1]);
    int parallelism = Integer.parseInt(args[2]);
    String kind = args[3];
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.setStateBackend(StateBackend.named(args[4]));
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setCheckpointDirectory(checkpoints);
    env.setRestartStrategy(RestartStrategy.none());
    DataStream<String> out =
        switch (kind) {
          case "join" -> join(env);
          case "broadcast" -> broadcast(env);
          default -> coProcess(env);
        };
    out.uid("two-input").addSink(FileSink.<String>forDirectory(output).build()).uid("sink");
    env.execute(NAME);
  }

  private static DataStream<String> coProcess(StreamEnvironment env) {
    KeyedStream<Long, Long> orders =
        numbers(env, "orders", RECORDS, index -> index).keyBy(order -> order);
    KeyedStream<Long, Long> payments =
        numbers(env, "payments", PAID, TwoInputChaosJob::paidOrder).keyBy(order -> order);
    return orders.connect(payments).process(new MatchPayments());
  }

  private static DataStream<String> join(StreamEnvironment env) {
    KeyedStream<Long, Long> left =
        timestamped(numbers(env, "left", RECORDS, index -> index), "left").keyBy(i -> i % 3);
    KeyedStream<Long, Long> right =
        timestamped(numbers(env, "right", RECORDS, index -> index), "right").keyBy(i -> i % 3);
    return left.intervalJoin(right)
        .between(Duration.ofMillis(LOWER), Duration.ofMillis(UPPER))
        .process(new Pairs());
  }

  private static DataStream<String> broadcast(StreamEnvironment env) {
    DataStream<Long> ruleIds =
        env.addSource(new GeneratorSource<>(RULES, index -> index, RULES_PER_SECOND))
            .setParallelism(1)
            .uid("rules");
    BroadcastStream<Long> rules =
        ruleIds
            .assignTimestampsAndWatermarks(
                WatermarkStrategy.<Long>forMonotonousTimestamps()
                    .withTimestampAssigner((rule, previous) -> rule))
            .setParallelism(1)
            .uid("rules-time")
            .broadcast(RULE_TEXTS);
    return timestamped(numbers(env, "records", RECORDS, index -> index), "records")
        .keyBy(index -> index % RULES)
        .connect(rules)
        .process(new ApplyRules());
  }

  private static DataStream<Long> numbers(
      StreamEnvironment env, String name, long count, GeneratorSource.Generator<Long> generator) {
    return env.addSource(new GeneratorSource<>(count, generator, RECORDS_PER_SECOND))
        .setParallelism(2)
        .uid(name);
  }

  private static DataStream<Long> timestamped(DataStream<Long> stream, String name) {
    return stream
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Long>forMonotonousTimestamps()
                .withTimestampAssigner((index, previous) -> index))
        .setParallelism(2)
        .uid(name + "-time");
  }

  /** The order that payment {@code index} pays: a permutation, so payments come out of order. */
  static long paidOrder(long index) {
    return index * 7 % RECORDS;
  }

  /** Every row the co-process job must write, once each. */
  static List<String> coProcessReference() {
    List<String> rows = new ArrayList<>();
    for (long payment = 0; payment < PAID; payment++) {
      rows.add("paid " + paidOrder(payment));
    }
    return rows;
  }

  /** The text of rule {@code rule}, so that a row shows which rule its record met. */
  static String ruleText(long rule) {
    return "rule " + rule + " = " + rule * rule;
  }

  /** Every row the broadcast job must write, once each. */
  static List<String> broadcastReference() {
    List<String> rows = new ArrayList<>();
    for (long record = 0; record < RECORDS; record++) {
      rows.add(record + " by " + ruleText(record % RULES));
    }
    return rows;
  }

  /** Every row the join job must write, once each, by a loop over all pairs near each other. */
  static List<String> joinReference() {
    List<String> rows = new ArrayList<>();
    for (long left = 0; left < RECORDS; left++) {
      for (long right = Math.max(0, left + LOWER); right <= left + UPPER; right++) {
        if (right < RECORDS && left % 3 == right % 3) {
          rows.add(left + "|" + right);
        }
      }
    }
    return rows;
  }

  /** Emits an order once both it and its payment arrived; the first to come waits in state. */
  static final class MatchPayments extends KeyedCoProcessFunction<Long, Long, Long, String> {
    private transient ValueState<String> waiting;

    @Override
    public void open() {
      waiting = getRuntimeContext().getState(new ValueStateDescriptor<>("waiting"));
    }

    @Override
    public void processElement1(
        Long order, KeyedProcessFunction.Context<Long> context, Collector<String> out) {
      meet("order", order, out);
    }

    @Override
    public void processElement2(
        Long order, KeyedProcessFunction.Context<Long> context, Collector<String> out) {
      meet("payment", order, out);
    }

    private void meet(String side, long order, Collector<String> out) {
      String earlier = waiting.value();
      if (earlier == null) {
        waiting.update(side);
      } else if (!earlier.equals(side)) {
        waiting.clear();
        out.collect("paid " + order);
      } else {
        throw new IllegalStateException("a second " + side + " of order " + order);
      }
    }
  }

  static final class Pairs extends ProcessJoinFunction<Long, Long, String> {
    @Override
    public void processElement(Long left, Long right, Context context, Collector<String> out) {
      out.collect(left + "|" + right);
    }
  }

  /**
   * Writes each record with the text of its rule. The key is the rule; a record that comes before
   * its rule waits in keyed state. Event time is the smaller of both inputs' watermarks and the
   * rules' is their id, so the timer at the rule's id fires only after the rule arrived.
   */
  static final class ApplyRules extends KeyedBroadcastProcessFunction<Long, Long, Long, String> {
    private transient ListState<Long> waiting;

    @Override
    public void open() {
      waiting = getRuntimeContext().getListState(new ListStateDescriptor<>("waiting"));
    }

    @Override
    public void processElement(Long record, ReadOnlyContext<Long> context, Collector<String> out) {
      String rule = context.getBroadcastState(RULE_TEXTS).get(context.currentKey());
      if (rule != null) {
        out.collect(record + " by " + rule);
      } else {
        waiting.add(record);
        context.timerService().registerEventTimeTimer(context.currentKey());
      }
    }

    @Override
    public void processBroadcastElement(Long rule, Context context, Collector<String> out) {
      context.getBroadcastState(RULE_TEXTS).put(rule, ruleText(rule));
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext<Long> context, Collector<String> out) {
      String rule = context.getBroadcastState(RULE_TEXTS).get(context.currentKey());
      if (rule == null) {
        throw new IllegalStateException(
            "event time passed rule " + context.currentKey() + " before the rule arrived");
      }
      for (long record : waiting.get()) {
        out.collect(record + " by " + rule);
      }
      waiting.clear();
    }
  }
}

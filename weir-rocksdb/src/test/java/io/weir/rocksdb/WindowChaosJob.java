package io.weir.rocksdb;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateBackend;
import io.weir.api.windowing.EventTimeSessionWindows;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Windowed jobs that write exactly once to files, for the kill-and-resume tests: record {@code i}
 * of a paced generator has event time {@link #time}; a session job sums each user's sessions, a
 * join job pairs each user's orders with payments per tumbling window. The reference methods
 * compute what either must commit by plain loops over the same records.
 *
 * <p>Arguments: checkpoint directory, output directory, parallelism of the windows, state backend
 * name, {@code sessions} or {@code join}, records.
 */
public final class WindowChaosJob {
  static final long USERS = 7;
  static final long SESSION_GAP = 10;
  static final long JOIN_WINDOW = 30;
  static final long RECORDS_PER_SECOND = 2_000;

  private WindowChaosJob() {}

  /** User {@code i % USERS} clicks every 3 ms; after each 10 clicks of a user comes a gap of 23. */
  static long time(long index) {
    long step = index / USERS;
    return step * 3 + (step / 10) * 20;
  }

  static long user(long index) {
    return index % USERS;
  }

  static boolean isOrder(long index) {
    return index % 3 != 0;
  }

  public static void main(String[] args) throws Exception {
    Path checkpoints = Path.of(args[0]);
    Path output = Path.of(args[1]);
    int parallelism = Integer.parseInt(args[2]);
    String kind = args[4];
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.setStateBackend(StateBackend.named(args[3]));
    env.enableCheckpointing(Duration.ofMillis(300));
    env.setCheckpointDirectory(checkpoints);
    env.setRestartStrategy(RestartStrategy.none());
    DataStream<Long> records =
        env.addSource(
                new GeneratorSource<>(Long.parseLong(args[5]), index -> index, RECORDS_PER_SECOND))
            .setParallelism(1)
            .uid("source")
            .assignTimestampsAndWatermarks(
                WatermarkStrategy.<Long>forMonotonousTimestamps()
                    .withTimestampAssigner((index, previous) -> time(index)))
            .setParallelism(1)
            .uid("timestamps");
    DataStream<String> results = kind.equals("sessions") ? sessions(records) : join(records);
    results.addSink(FileSink.<String>forDirectory(output).build()).setParallelism(1).uid("files");
    env.execute(kind);
  }

  private static DataStream<String> sessions(DataStream<Long> records) {
    return records
        .keyBy(WindowChaosJob::user)
        .window(EventTimeSessionWindows.withGap(Duration.ofMillis(SESSION_GAP)))
        .aggregate(new Sum(), new SessionLine())
        .uid("sessions");
  }

  private static DataStream<String> join(DataStream<Long> records) {
    DataStream<Long> orders = records.filter(WindowChaosJob::isOrder).uid("orders");
    DataStream<Long> payments = records.filter(index -> !isOrder(index)).uid("payments");
    return orders
        .join(payments)
        .where(WindowChaosJob::user)
        .equalTo(WindowChaosJob::user)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(JOIN_WINDOW)))
        .apply((order, payment) -> order + "-" + payment)
        .uid("join");
  }

  /** Counts and sums the indexes of a session: {count, sum}. */
  static final class Sum implements AggregateFunction<Long, long[], long[]> {
    @Override
    public long[] createAccumulator() {
      return new long[2];
    }

    @Override
    public long[] add(Long index, long[] totals) {
      return new long[] {totals[0] + 1, totals[1] + index};
    }

    @Override
    public long[] getResult(long[] totals) {
      return totals;
    }

    @Override
    public long[] merge(long[] a, long[] b) {
      return new long[] {a[0] + b[0], a[1] + b[1]};
    }
  }

  /** "user,start,end,count,sum" of a session. */
  static final class SessionLine extends ProcessWindowFunction<long[], String, Long, TimeWindow> {
    @Override
    public void process(
        Long user, Context<TimeWindow> context, Iterable<long[]> totals, Collector<String> out) {
      long[] total = totals.iterator().next();
      TimeWindow window = context.window();
      out.collect(line(user, window.start(), window.end(), total[0], total[1]));
    }
  }

  static String line(long user, long start, long end, long count, long sum) {
    return user + "," + start + "," + end + "," + count + "," + sum;
  }

  /** Each user's records in time order, cut where two are more than the gap apart. */
  static List<String> referenceSessions(long records) {
    Map<Long, List<Long>> byUser = new HashMap<>();
    for (long index = 0; index < records; index++) {
      byUser.computeIfAbsent(user(index), user -> new ArrayList<>()).add(index);
    }
    List<String> sessions = new ArrayList<>();
    byUser.forEach(
        (user, indexes) -> {
          int first = 0;
          for (int at = 1; at <= indexes.size(); at++) {
            if (at == indexes.size()
                || time(indexes.get(at)) - time(indexes.get(at - 1)) > SESSION_GAP) {
              List<Long> session = indexes.subList(first, at);
              long sum = session.stream().mapToLong(Long::longValue).sum();
              long end = time(session.get(session.size() - 1)) + SESSION_GAP;
              sessions.add(line(user, time(session.get(0)), end, session.size(), sum));
              first = at;
            }
          }
        });
    return sessions;
  }

  /** Every order and payment of one user in the same window: a nested loop per window. */
  static List<String> referencePairs(long records) {
    Map<Long, List<Long>> byWindow = new HashMap<>();
    for (long index = 0; index < records; index++) {
      byWindow.computeIfAbsent(time(index) / JOIN_WINDOW, window -> new ArrayList<>()).add(index);
    }
    List<String> pairs = new ArrayList<>();
    for (List<Long> window : byWindow.values()) {
      for (long order : window) {
        for (long payment : window) {
          if (isOrder(order) && !isOrder(payment) && user(order) == user(payment)) {
            pairs.add(order + "-" + payment);
          }
        }
      }
    }
    return pairs;
  }
}

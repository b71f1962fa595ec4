package io.weir.rocksdb;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateBackend;
import io.weir.api.state.StateBackends;
import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A keyed job that holds far more timers than its heap could: record {@code i} (event time {@code
 * i}) registers an event-time timer of key {@code i % keys} at {@code i + lag}, so about {@code
 * lag} timers wait at any time. Each key's state counts the timers it fired and checks that they
 * came in the only right order (each the key's next, once the watermark passed it); the end of the
 * input fires the rest.
 *
 * <p>Arguments: checkpoint directory, parallelism of the keyed operator, keys, records, lag, and
 * optionally the state backend's name (default rocksdb).
 */
public final class ManyTimersJob {
  static final String NAME = "many-timers";
  static final String OPERATOR_UID = "fire-once";
  static final String STATE_NAME = "fired";

  /**
   * Paced, so that the input lasts several checkpoint intervals wherever it runs: unpaced, a fast
   * run read all of it before its fourth checkpoint, ended, and the test's kill found no job.
   */
  static final long RECORDS_PER_SECOND = 40_000;

  private ManyTimersJob() {}

  public static void main(String[] args) throws Exception {
    Path checkpoints = Path.of(args[0]);
    int parallelism = Integer.parseInt(args[1]);
    long keys = Long.parseLong(args[2]);
    long records = Long.parseLong(args[3]);
    long lag = Long.parseLong(args[4]);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.setStateBackend(args.length > 5 ? StateBackend.named(args[5]) : StateBackends.rocksdb());
    env.enableCheckpointing(Duration.ofSeconds(1));
    env.setCheckpointDirectory(checkpoints);
    env.setRestartStrategy(RestartStrategy.none());
    env.addSource(new GeneratorSource<>(records, index -> index, RECORDS_PER_SECOND))
        .setParallelism(1)
        .uid("source")
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Long>forMonotonousTimestamps()
                .withTimestampAssigner((index, previous) -> index))
        .setParallelism(1)
        .uid("timestamps")
        .keyBy(index -> index % keys)
        .process(new FireOnce(keys, lag))
        .uid(OPERATOR_UID)
        .addSink(new DiscardingSink<>())
        .uid("sink");
    env.execute(NAME);
  }

  /** What a key's state holds: timers fired, the last one's time, and timers out of place. */
  record Fired(long count, long lastTime, long wrong) {
    static Fired of(byte[] bytes) {
      ByteBuffer buffer = ByteBuffer.wrap(bytes);
      return new Fired(buffer.getLong(), buffer.getLong(), buffer.getLong());
    }

    byte[] toBytes() {
      return ByteBuffer.allocate(3 * Long.BYTES)
          .putLong(count)
          .putLong(lastTime)
          .putLong(wrong)
          .array();
    }
  }

  static final class FireOnce extends KeyedProcessFunction<Long, Long, Long> {
    private final long keys;
    private final long lag;
    private transient ValueState<byte[]> fired;

    FireOnce(long keys, long lag) {
      this.keys = keys;
      this.lag = lag;
    }

    @Override
    public void open() {
      fired =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>(STATE_NAME, StateSerializers.tagged()));
    }

    @Override
    public void processElement(Long index, Context<Long> context, Collector<Long> out) {
      context.timerService().registerEventTimeTimer(index + lag);
    }

    @Override
    public void onTimer(long time, OnTimerContext<Long> context, Collector<Long> out) {
      byte[] bytes = fired.value();
      Fired before = bytes == null ? new Fired(0, 0, 0) : Fired.of(bytes);
      long expected = before.count() == 0 ? context.currentKey() + lag : before.lastTime() + keys;
      boolean inPlace =
          time == expected
              && context.isEventTime()
              && context.timerService().currentWatermark() >= time;
      fired.update(
          new Fired(before.count() + 1, time, before.wrong() + (inPlace ? 0 : 1)).toBytes());
    }
  }
}

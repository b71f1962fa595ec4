package io.weir.runtime.operators;

import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessJoinFunction;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Joins two keyed inputs by time: a left record at t pairs with every right record of its key at a
 * time in {@code [t + lower, t + upper]}. Each side waits in keyed state, by timestamp, as long as
 * a partner may still come: a left record until the watermark passes {@code t + upper}, a right
 * record until it passes {@code t - lower}; an event-time timer of the key removes it then. A
 * record earlier than the watermark is dropped, since partners it needs may be gone. Each pair is
 * made once, when the later of its two records arrives.
 */
public final class IntervalJoinOperator
    extends AbstractTwoInputOperator<ProcessJoinFunction<Object, Object, Object>>
    implements ProcessJoinFunction.Context {
  private static final Logger LOG = LoggerFactory.getLogger(IntervalJoinOperator.class);

  /** The widest interval, in milliseconds, whose partners are looked up time by time. */
  private static final long POINT_LOOKUPS_UP_TO = 256;

  private final TimestampedCollector collector = new TimestampedCollector(output);
  private final long lower;
  private final long upper;
  private MapState<Long, List<Object>> leftBuffer;
  private MapState<Long, List<Object>> rightBuffer;
  private KeyedTimers timers;
  private long leftTimestamp;
  private long rightTimestamp;
  private long lateRecords;

  public IntervalJoinOperator(
      OperatorSetup setup,
      ProcessJoinFunction<Object, Object, Object> function,
      long lowerMillis,
      long upperMillis,
      KeySelector<?, ?> secondKey,
      Output output) {
    super(setup, function, secondKey, output);
    this.lower = lowerMillis;
    this.upper = upperMillis;
  }

  @Override
  public void initializeState() throws Exception {
    super.initializeState();
    leftBuffer = keyedState.getMapState(new MapStateDescriptor<>("__interval-join.left"));
    rightBuffer = keyedState.getMapState(new MapStateDescriptor<>("__interval-join.right"));
    timers = new KeyedTimers(keyedState, setup.timeService(), this::onTimer);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    if (isLate(timestamp)) {
      return;
    }
    add(leftBuffer, timestamp, record);
    for (Map.Entry<Long, List<Object>> right :
        partners(rightBuffer, timestamp + lower, timestamp + upper)) {
      for (Object partner : right.getValue()) {
        emit(record, timestamp, partner, right.getKey());
      }
    }
    timers.registerEventTimeTimer(leftExpiry(timestamp));
  }

  @Override
  public void processElement2(Object record, long timestamp) throws Exception {
    recordsIn++;
    setSecondKeyContext(record);
    if (isLate(timestamp)) {
      return;
    }
    add(rightBuffer, timestamp, record);
    for (Map.Entry<Long, List<Object>> left :
        partners(leftBuffer, timestamp - upper, timestamp - lower)) {
      for (Object partner : left.getValue()) {
        emit(partner, left.getKey(), record, timestamp);
      }
    }
    timers.registerEventTimeTimer(rightExpiry(timestamp));
  }

  /** The watermark after which no right record can pair with a left record at {@code time}. */
  private long leftExpiry(long time) {
    return time + upper + 1;
  }

  /** The watermark after which no left record can pair with a right record at {@code time}. */
  private long rightExpiry(long time) {
    return time - lower + 1;
  }

  private boolean isLate(long timestamp) {
    if (timestamp == Long.MIN_VALUE) {
      throw new IllegalStateException(
          setup.describe() + " got a record without a timestamp: assign timestamps to both inputs");
    }
    if (timestamp < timers.currentWatermark()) {
      lateRecords++;
      return true;
    }
    return false;
  }

  /** Adds to a copy of the list, since RocksDB hands out copies and the heap its own object. */
  private static void add(MapState<Long, List<Object>> buffer, long timestamp, Object record) {
    List<Object> records = buffer.get(timestamp);
    List<Object> updated = records == null ? new ArrayList<>(1) : new ArrayList<>(records);
    updated.add(record);
    buffer.put(timestamp, updated);
  }

  private void emit(Object left, long leftTime, Object right, long rightTime) throws Exception {
    leftTimestamp = leftTime;
    rightTimestamp = rightTime;
    collector.setTimestamp(Math.max(leftTime, rightTime));
    function.processElement(left, right, this, collector);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    timers.advanceWatermark(watermark);
    super.processWatermark(watermark);
  }

  /**
   * The timer at {@code time} is the expiry of the left records at {@code time - upper - 1} and of
   * the right records at {@code time + lower - 1} (timers of a key and time are one), so it removes
   * exactly those, without a scan of either buffer.
   */
  private void onTimer(long time, Object key, boolean eventTime) throws Exception {
    leftBuffer.remove(time - upper - 1);
    rightBuffer.remove(time + lower - 1);
  }

  /**
   * The entries of {@code buffer} at times {@code from..to}: looked up one time at a time when the
   * interval is narrow, since a buffer holds every record since the watermark last passed (a scan
   * per record would cost the square of that, on RocksDB a read each); scanned when it is wide.
   */
  private static List<Map.Entry<Long, List<Object>>> partners(
      MapState<Long, List<Object>> buffer, long from, long to) {
    List<Map.Entry<Long, List<Object>>> found = new ArrayList<>();
    if (to - from < POINT_LOOKUPS_UP_TO) {
      for (long time = from; time <= to; time++) {
        List<Object> records = buffer.get(time);
        if (records != null) {
          found.add(Map.entry(time, records));
        }
      }
      return found;
    }
    for (Map.Entry<Long, List<Object>> entry : buffer.entries().entrySet()) {
      if (entry.getKey() >= from && entry.getKey() <= to) {
        found.add(entry);
      }
    }
    return found;
  }

  @Override
  public void close() throws Exception {
    if (lateRecords > 0) {
      LOG.info("{} dropped {} records earlier than the watermark", setup.describe(), lateRecords);
    }
    super.close();
  }

  /** Records dropped because they were earlier than the watermark. */
  public long lateRecords() {
    return lateRecords;
  }

  @Override
  public long leftTimestamp() {
    return leftTimestamp;
  }

  @Override
  public long rightTimestamp() {
    return rightTimestamp;
  }

  @Override
  public long timestamp() {
    return collector.timestamp();
  }

  @Override
  public <X> void output(OutputTag<X> tag, X value) {
    collector.collectSide(tag, value);
  }
}

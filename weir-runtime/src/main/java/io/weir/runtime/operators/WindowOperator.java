package io.weir.runtime.operators;

import io.weir.api.functions.Function;
import io.weir.api.functions.OutputTag;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.MergingWindowAssigner;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.WindowAssigner;
import io.weir.runtime.operators.window.AccumulatedTypes;
import io.weir.runtime.operators.window.OpenWindows;
import io.weir.runtime.operators.window.WindowAccumulator;
import io.weir.runtime.operators.window.WindowContentsSerializer;
import io.weir.runtime.operators.window.WindowMerge;
import io.weir.runtime.state.KeyedTable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keyed time windows folded with a reduce or an aggregate function, or kept whole, and emitted as
 * they are or through a process window function ({@link WindowResults}).
 *
 * <p>Each key's open windows and their accumulated values live in one keyed state ({@code window ->
 * accumulated}), and their timers in the keyed timers, so both are part of every checkpoint; a
 * window registers its timers with its first record (a session, whose end moves as it merges, with
 * each record that moves it). An event-time window fires when the watermark reaches its {@link
 * TimeWindow#maxTimestamp()} and emits its result with that timestamp; its state is kept until the
 * watermark reaches {@code maxTimestamp + allowedLateness}, and each record that arrives in between
 * re-fires it with the updated result. A record whose every window is past that point is late: it
 * goes to the late side output when there is one, else it is dropped and counted. A processing-time
 * window fires and is cleared when processing time reaches its end; at the end of input,
 * processing-time windows that are still open fire too (event-time windows fire on the final
 * watermark).
 *
 * <p>Windows of a {@link MergingWindowAssigner} (sessions) merge as records arrive: the record's
 * window and every open window of the key it intersects become their cover, with the contents
 * merged into one state ({@link WindowMerge}). The cover is checked for lateness as Flink does: a
 * record whose own window is past cleanup but merges into a session still kept is accepted, and a
 * session that already fired fires again with the late record. Timers of the windows merged away
 * are deleted unless another open window of the key needs the same time; timers are matched to
 * windows by time, so a timer left from an earlier version, that no window ends at, does nothing.
 */
public final class WindowOperator extends AbstractStreamOperator<Function> {
  private static final Logger LOG = LoggerFactory.getLogger(WindowOperator.class);
  private static final String CONTENTS_STATE = "window-contents";

  private final WindowAssigner<Object> assigner;
  private final WindowAccumulator accumulator;
  private final boolean merging;
  private final boolean eventTime;
  private final long allowedLateness;
  private final OutputTag<?> lateOutput;
  private final OperatorSpec.Window spec;
  private KeyedTable contents;
  private KeyedTimers timers;
  private WindowResults results;
  private long lateRecordsDropped;

  @SuppressWarnings("unchecked")
  public WindowOperator(OperatorSetup setup, OperatorSpec.Window spec, Output output) {
    super(setup, userFunction(spec), output);
    this.assigner = (WindowAssigner<Object>) spec.assigner();
    this.accumulator = WindowAccumulator.of(spec.reduce(), spec.aggregate());
    this.merging = assigner instanceof MergingWindowAssigner;
    this.eventTime = assigner.isEventTime();
    this.allowedLateness = Math.max(0, spec.allowedLatenessMillis());
    this.lateOutput = spec.lateOutput();
    this.spec = spec;
  }

  @Override
  public void initializeState() throws Exception {
    super.initializeState();
    if (keyedState == null) {
      throw new IllegalStateException(
          "Windows need a keyed stream: call keyBy before window for " + setup.describe());
    }
    contents =
        keyedState.table(
            CONTENTS_STATE,
            WindowContentsSerializer.of(
                AccumulatedTypes.of(
                    spec.reduce(), spec.aggregate(), spec.windowFunction(), setup.describe())));
    timers = new KeyedTimers(keyedState, setup.timeService(), this::onTimer);
    results =
        new WindowResults(
            spec.windowFunction(), output, timers::currentWatermark, timers::currentProcessingTime);
  }

  /** The function whose lifecycle (rich, checkpointed) the operator runs. */
  private static Function userFunction(OperatorSpec.Window spec) {
    if (spec.windowFunction() != null) {
      return spec.windowFunction();
    }
    return spec.reduce() != null ? spec.reduce() : spec.aggregate();
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    Collection<TimeWindow> assigned = assigner.assignWindows(record, windowTime(timestamp));
    boolean accepted = merging ? addMerging(assigned, record) : addToWindows(assigned, record);
    if (!accepted) {
      onLateRecord(record, timestamp);
    }
  }

  private long windowTime(long timestamp) {
    if (!eventTime) {
      return timers.currentProcessingTime();
    }
    if (timestamp == Long.MIN_VALUE) {
      throw new IllegalStateException(
          "Event-time window "
              + setup.describe()
              + " got a record without a timestamp: call assignTimestampsAndWatermarks before"
              + " keyBy");
    }
    return timestamp;
  }

  /**
   * Adds the record to each of its windows that is not past cleanup; true if it was added to any.
   * The key's windows are read once and written back once for all of the record's windows: a
   * backend that serializes (RocksDB) reads and writes all of the key's windows with each access,
   * and a sliding window assigns each record to several.
   */
  private boolean addToWindows(Collection<TimeWindow> assigned, Object record) throws Exception {
    Map<TimeWindow, Object> windows = null;
    boolean changed = false;
    for (TimeWindow window : assigned) {
      if (isPastCleanup(window, timers.currentWatermark())) {
        continue;
      }
      if (windows == null) {
        windows = windowsOfCurrentKey(true);
      }
      Object before = windows.get(window);
      boolean opens = before == null && !windows.containsKey(window);
      Object accumulated = accumulator.add(before, record);
      // An accumulator changed in place, of a window the table holds already, is written back
      // only where the table keeps bytes: on the heap, the second hash lookup per record would be
      // wasted.
      if (opens || accumulated != before || !contents.keepsValueObjects()) {
        windows.put(window, accumulated);
        changed = true;
      }
      if (opens) {
        registerTimers(window);
      }
      maybeFireAgain(window, accumulated);
    }
    if (changed) {
      contents.put(windows);
    }
    return windows != null;
  }

  /**
   * Merges each of the record's windows with the key's open windows it intersects and adds the
   * record to the result, unless that result is past cleanup; true if the record was added.
   */
  private boolean addMerging(Collection<TimeWindow> assigned, Object record) throws Exception {
    boolean accepted = false;
    for (TimeWindow window : assigned) {
      accepted |= addMerging(window, record);
    }
    return accepted;
  }

  private boolean addMerging(TimeWindow window, Object record) throws Exception {
    Map<TimeWindow, Object> windows = windowsOfCurrentKey(true);
    WindowMerge merge = WindowMerge.of(window, windows.keySet());
    if (isPastCleanup(merge.result(), timers.currentWatermark())) {
      return false;
    }
    Object accumulated = accumulator.add(merge.apply(windows, accumulator), record);
    windows.put(merge.result(), accumulated);
    contents.put(windows);
    // A merge that moves a session's end moves its timers, which are matched by time: the new
    // ones are registered and those no open window needs any more deleted, as each would
    // otherwise fire later only to find no window (on RocksDB a read and a write of the key's
    // windows each). A record inside a session leaves its timers as they are.
    if (!merge.merged().contains(merge.result())) {
      registerTimers(merge.result());
      for (TimeWindow mergedAway : merge.merged()) {
        maybeDeleteTimers(mergedAway, windows.keySet());
      }
    }
    maybeFireAgain(merge.result(), accumulated);
    return true;
  }

  /**
   * Registers the timers of {@code window}: where it fires, unless event time has passed that
   * already, and where its state is cleared when that is later. A window that is not merged
   * registers them once, with its first record: its timers are keyed state like its contents, so
   * while the contents hold the window (through checkpoints, restores and rescales alike) its
   * cleanup timer is still there, and registering it again would cost a state write per record.
   */
  private void registerTimers(TimeWindow window) {
    long end = window.maxTimestamp();
    if (!eventTime) {
      timers.registerProcessingTimeTimer(end);
      return;
    }
    if (end > timers.currentWatermark()) {
      timers.registerEventTimeTimer(end);
    }
    long cleanup = cleanupTime(window);
    if (cleanup != end) {
      timers.registerEventTimeTimer(cleanup);
    }
  }

  /**
   * Deletes the timers of {@code mergedAway}, a session merged into another, unless one of the
   * key's {@code open} windows fires or is cleared at the same time: one timer serves every window
   * of the key that ends or is cleared at its time.
   */
  private void maybeDeleteTimers(TimeWindow mergedAway, Collection<TimeWindow> open) {
    maybeDeleteTimer(mergedAway.maxTimestamp(), open);
    long cleanup = cleanupTime(mergedAway);
    if (cleanup != mergedAway.maxTimestamp()) {
      maybeDeleteTimer(cleanup, open);
    }
  }

  private void maybeDeleteTimer(long time, Collection<TimeWindow> open) {
    for (TimeWindow window : open) {
      if (window.maxTimestamp() == time || cleanupTime(window) == time) {
        return;
      }
    }
    if (eventTime) {
      timers.deleteEventTimeTimer(time);
    } else {
      timers.deleteProcessingTimeTimer(time);
    }
  }

  /**
   * Fires a window at once when its record came after event time passed the window's end, within
   * the allowed lateness: again if it fired already.
   */
  private void maybeFireAgain(TimeWindow window, Object accumulated) throws Exception {
    if (eventTime && window.maxTimestamp() <= timers.currentWatermark()) {
      emit(window, accumulated);
    }
  }

  private void onLateRecord(Object record, long timestamp) throws Exception {
    if (lateOutput != null) {
      output.collectSide(lateOutput, record, timestamp);
    } else {
      lateRecordsDropped++;
    }
  }

  /**
   * A timer of the current key: fires the windows that end at {@code time} and clears those whose
   * cleanup time it is. One timer may serve several windows (the end of one can be the cleanup time
   * of another), so the windows are matched by time rather than the timer by window.
   */
  private void onTimer(long time, Object key, boolean eventTimeTimer) throws Exception {
    Map<TimeWindow, Object> windows = windowsOfCurrentKey(false);
    if (windows == null || eventTimeTimer != eventTime) {
      return;
    }
    // The windows that end at this time, in the map's order (by start): the order of firing,
    // without sorting them all for each timer.
    for (Map.Entry<TimeWindow, Object> window : windows.entrySet()) {
      if (window.getKey().maxTimestamp() == time) {
        emit(window.getKey(), window.getValue());
      }
    }
    boolean cleared = false;
    Iterator<TimeWindow> open = windows.keySet().iterator();
    while (open.hasNext()) {
      if (cleanupTime(open.next()) <= time) {
        open.remove();
        cleared = true;
      }
    }
    // A timer that clears nothing leaves the contents as they were, and on RocksDB unwritten.
    if (cleared) {
      contents.put(windows.isEmpty() ? null : windows);
    }
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    timers.advanceWatermark(watermark);
    super.processWatermark(watermark);
  }

  /** Fires the processing-time windows still open; event time fired on the final watermark. */
  @Override
  public void endInput() throws Exception {
    if (eventTime) {
      return;
    }
    List<Object> keys = new ArrayList<>();
    contents.forEach((key, windows) -> keys.add(key));
    for (Object key : keys) {
      keyedState.setCurrentKey(key);
      Map<TimeWindow, Object> windows = windowsOfCurrentKey(false);
      for (TimeWindow window : inFiringOrder(windows)) {
        emit(window, windows.get(window));
      }
      contents.put(null);
    }
  }

  @Override
  public void close() throws Exception {
    if (lateRecordsDropped > 0) {
      LOG.info(
          "{} dropped {} late records (no late side output)", setup.describe(), lateRecordsDropped);
    }
    super.close();
  }

  /** How many records came after all their windows were cleaned up and had nowhere to go. */
  public long lateRecordsDropped() {
    return lateRecordsDropped;
  }

  private void emit(TimeWindow window, Object accumulated) throws Exception {
    results.emit(keyedState.currentKey(), window, accumulator.results(accumulated));
  }

  private boolean isPastCleanup(TimeWindow window, long watermark) {
    return eventTime && cleanupTime(window) <= watermark;
  }

  /** When the window's state goes: its end plus the allowed lateness, without overflowing. */
  private long cleanupTime(TimeWindow window) {
    long end = window.maxTimestamp();
    if (!eventTime) {
      return end;
    }
    long cleanup = end + allowedLateness;
    return cleanup >= end ? cleanup : Long.MAX_VALUE;
  }

  /**
   * The current key's open windows; a map another form was restored as (a checkpoint of an earlier
   * version) is taken into the operator's own form and stored so.
   */
  private Map<TimeWindow, Object> windowsOfCurrentKey(boolean create) {
    Object windows = contents.get();
    if (windows == null) {
      return create ? new OpenWindows() : null;
    }
    if (windows instanceof OpenWindows open) {
      return open;
    }
    OpenWindows converted = OpenWindows.of((Map<?, ?>) windows);
    contents.put(converted);
    return converted;
  }

  private static List<TimeWindow> inFiringOrder(Map<TimeWindow, Object> windows) {
    List<TimeWindow> ordered = new ArrayList<>(windows.keySet());
    ordered.sort(Comparator.comparingLong(TimeWindow::maxTimestamp));
    return ordered;
  }
}

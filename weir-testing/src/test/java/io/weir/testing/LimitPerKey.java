package io.weir.testing;

import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedBroadcastProcessFunction;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A rule pushed to every subtask: broadcast elements {@code "<anything>:<n>"} set the limit to n
 * modulo 50; each keyed record adds one to its key's count, and a key whose count is above the
 * limit emits {@code <key> over <limit> with <count>}.
 */
final class LimitPerKey extends KeyedBroadcastProcessFunction<String, String, String, String> {
  static final MapStateDescriptor<String, Long> RULES = new MapStateDescriptor<>("rules");
  private transient ValueState<Long> count;

  @Override
  public void open() {
    count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
  }

  @Override
  public void processElement(String value, ReadOnlyContext<String> context, Collector<String> out) {
    long now = count.value() == null ? 1 : count.value() + 1;
    count.update(now);
    Long limit = context.getBroadcastState(RULES).get("limit");
    if (limit != null && now > limit) {
      out.collect(context.currentKey() + " over " + limit + " with " + now);
    }
  }

  @Override
  public void processBroadcastElement(String value, Context context, Collector<String> out) {
    context.getBroadcastState(RULES).put("limit", Long.parseLong(TwoInputEvents.value(value)) % 50);
  }

  /** What the function emits for the script (second-input records broadcast), by a plain loop. */
  static List<String> reference(List<TwoInputEvents.Event> events) {
    Map<String, Long> counts = new HashMap<>();
    Long limit = null;
    List<String> out = new ArrayList<>();
    for (TwoInputEvents.Event event : events) {
      if (event instanceof TwoInputEvents.First first) {
        String key = TwoInputEvents.key(first.record());
        long now = counts.merge(key, 1L, Long::sum);
        if (limit != null && now > limit) {
          out.add(key + " over " + limit + " with " + now);
        }
      } else if (event instanceof TwoInputEvents.Second second) {
        limit = Long.parseLong(TwoInputEvents.value(second.record())) % 50;
      }
    }
    return out;
  }

  /** Feeds the script, its second-input records as broadcast elements. */
  static void feed(
      TwoInputOperatorTestHarness<String, String, String> harness,
      List<TwoInputEvents.Event> events)
      throws Exception {
    for (TwoInputEvents.Event event : events) {
      if (event instanceof TwoInputEvents.Second second) {
        harness.processBroadcastElement(second.record(), second.timestamp());
      } else {
        TwoInputEvents.feed(harness, event);
      }
    }
  }
}

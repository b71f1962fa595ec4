package io.weir.testing;

import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Enrichment with keyed state shared by both inputs: the first input sets a key's rate, the second
 * brings orders, each emitted with the key's rate at that moment; every order also sets an
 * event-time timer ten later that reports how many orders its key had when it fired.
 */
final class RateEnricher extends KeyedCoProcessFunction<String, String, String, String> {
  private transient ValueState<String> rate;
  private transient ValueState<Long> orders;

  @Override
  public void open() {
    rate = getRuntimeContext().getState(new ValueStateDescriptor<>("rate"));
    orders = getRuntimeContext().getState(new ValueStateDescriptor<>("orders"));
  }

  @Override
  public void processElement1(
      String value, KeyedProcessFunction.Context<String> context, Collector<String> out) {
    rate.update(TwoInputEvents.value(value));
  }

  @Override
  public void processElement2(
      String value, KeyedProcessFunction.Context<String> context, Collector<String> out) {
    Long count = orders.value();
    orders.update(count == null ? 1 : count + 1);
    out.collect("order " + TwoInputEvents.value(value) + " at rate " + rate.value());
    context.timerService().registerEventTimeTimer(context.timestamp() + 10);
  }

  @Override
  public void onTimer(
      long timestamp, KeyedProcessFunction.OnTimerContext<String> context, Collector<String> out) {
    out.collect(context.currentKey() + " at " + timestamp + " had " + orders.value());
  }

  /** What the function emits for the script, by a plain loop over it. */
  static List<String> reference(List<TwoInputEvents.Event> events) {
    Map<String, String> rates = new HashMap<>();
    Map<String, Long> counts = new HashMap<>();
    TreeSet<Timer> timers = new TreeSet<>();
    List<String> out = new ArrayList<>();
    for (TwoInputEvents.Event event : events) {
      if (event instanceof TwoInputEvents.First first) {
        rates.put(TwoInputEvents.key(first.record()), TwoInputEvents.value(first.record()));
      } else if (event instanceof TwoInputEvents.Second second) {
        String key = TwoInputEvents.key(second.record());
        counts.merge(key, 1L, Long::sum);
        out.add("order " + TwoInputEvents.value(second.record()) + " at rate " + rates.get(key));
        timers.add(new Timer(second.timestamp() + 10, key));
      } else if (event instanceof TwoInputEvents.Watermark watermark) {
        while (!timers.isEmpty() && timers.first().time() <= watermark.time()) {
          Timer timer = timers.pollFirst();
          out.add(timer.key() + " at " + timer.time() + " had " + counts.get(timer.key()));
        }
      }
    }
    return out;
  }

  private record Timer(long time, String key) implements Comparable<Timer> {
    @Override
    public int compareTo(Timer other) {
      int byTime = Long.compare(time, other.time);
      return byTime != 0 ? byTime : key.compareTo(other.key);
    }
  }
}

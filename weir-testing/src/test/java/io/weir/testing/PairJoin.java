package io.weir.testing;

import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessJoinFunction;
import java.util.ArrayList;
import java.util.List;

/** Emits each pair of an interval join as {@code left|right@timestamp}. */
final class PairJoin extends ProcessJoinFunction<String, String, String> {
  @Override
  public void processElement(String left, String right, Context context, Collector<String> out) {
    out.collect(left + "|" + right + "@" + context.timestamp());
  }

  /** Every pair of the script in the interval, by a plain loop over all left and right records. */
  static List<String> reference(List<TwoInputEvents.Event> events, long lower, long upper) {
    List<String> out = new ArrayList<>();
    for (TwoInputEvents.Event left : events) {
      if (!(left instanceof TwoInputEvents.First first)) {
        continue;
      }
      for (TwoInputEvents.Event right : events) {
        if (right instanceof TwoInputEvents.Second second
            && TwoInputEvents.key(first.record()).equals(TwoInputEvents.key(second.record()))
            && second.timestamp() >= first.timestamp() + lower
            && second.timestamp() <= first.timestamp() + upper) {
          long timestamp = Math.max(first.timestamp(), second.timestamp());
          out.add(first.record() + "|" + second.record() + "@" + timestamp);
        }
      }
    }
    return out;
  }
}

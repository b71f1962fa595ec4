package io.weir.testing;

import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/**
 * Counts a word's records in keyed state until event time passes 10 ms after its latest record,
 * then emits {@code word=count} and forgets the word. A processing-time timer 100 ms after each
 * record reports {@code word is slow} on a side output when no watermark fired the count by then.
 */
final class WordCountUntilQuiet extends KeyedProcessFunction<String, String, String> {
  static final OutputTag<String> SLOW = new OutputTag<>("slow");
  private static final long serialVersionUID = 1L;

  private transient ValueState<Long> count;
  private transient ValueState<Long> due;

  @Override
  public void open() {
    count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    due = getRuntimeContext().getState(new ValueStateDescriptor<>("due"));
  }

  @Override
  public void processElement(String word, Context<String> context, Collector<String> out) {
    count.update(count.value() == null ? 1 : count.value() + 1);
    if (due.value() != null) {
      context.timerService().deleteEventTimeTimer(due.value());
    }
    due.update(context.timestamp() + 10);
    context.timerService().registerEventTimeTimer(due.value());
    context
        .timerService()
        .registerProcessingTimeTimer(context.timerService().currentProcessingTime() + 100);
  }

  @Override
  public void onTimer(long time, OnTimerContext<String> context, Collector<String> out) {
    if (context.isEventTime()) {
      out.collect(context.currentKey() + "=" + count.value());
      count.clear();
      due.clear();
    } else if (count.value() != null) {
      context.output(SLOW, context.currentKey() + " is slow");
    }
  }
}

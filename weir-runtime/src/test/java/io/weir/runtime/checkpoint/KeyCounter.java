package io.weir.runtime.checkpoint;

import io.weir.api.functions.RichMapFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/** Counts the records of each key in keyed state and emits {@code {key, count so far}}. */
final class KeyCounter extends RichMapFunction<Long, long[]> {
  private final int keys;
  private transient ValueState<Long> count;

  KeyCounter(int keys) {
    this.keys = keys;
  }

  @Override
  public void open() {
    count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
  }

  @Override
  public long[] map(Long value) {
    Long current = count.value();
    long next = current == null ? 1 : current + 1;
    count.update(next);
    return new long[] {value % keys, next};
  }
}

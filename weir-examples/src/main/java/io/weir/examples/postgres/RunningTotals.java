package io.weir.examples.postgres;

import io.weir.api.functions.RichMapFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.examples.SeedRecords;

/** Keyed by word: turns each seed record into the word's new running aggregate. */
final class RunningTotals extends RichMapFunction<String, WordTotal> {
  private static final long serialVersionUID = 1L;

  private transient ValueState<WordTotal> last;

  @Override
  public void open() {
    last = getRuntimeContext().getState(new ValueStateDescriptor<>("word-total"));
  }

  @Override
  public WordTotal map(String record) {
    String word = SeedRecords.word(record);
    long id = SeedRecords.timestamp(record);
    long frequency = SeedRecords.frequency(record);
    WordTotal previous = last.value();
    WordTotal next =
        previous == null ? WordTotal.first(id, word, frequency) : previous.next(id, frequency);
    last.update(next);
    return next;
  }
}

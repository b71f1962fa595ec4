package io.weir.lab;

import io.weir.examples.SeedRecords;
import java.util.HashMap;
import java.util.Map;

/**
 * The verdict on the running count's committed output, by keyed state: a word read n times must
 * have been emitted with the counts 1..n, each exactly once. A count of 1..n that is missing is one
 * lost record; each further emission of a count, and any count above n, is one duplicate. So {@code
 * out = in - lost + duplicated}, as for the verdict by id.
 */
public final class RunningCountVerdict {
  private RunningCountVerdict() {}

  public static OutputVerifier.Verdict verify(String bootstrap, CellTopics topics) {
    Map<String, Long> inputPerWord = new HashMap<>();
    long[] input = {0};
    SeedRecordsRead.values(
        bootstrap,
        topics.input(),
        false,
        (id, value) -> {
          input[0]++;
          inputPerWord.merge(SeedRecords.word(value), 1L, Long::sum);
        });
    Map<String, Map<Long, Integer>> countsPerWord = new HashMap<>();
    long[] output = {0};
    SeedRecordsRead.values(
        bootstrap,
        topics.output(),
        true,
        (id, value) -> {
          output[0]++;
          countsPerWord
              .computeIfAbsent(SeedRecords.word(value), word -> new HashMap<>())
              .merge(count(value), 1, Integer::sum);
        });
    return compare(inputPerWord, countsPerWord, input[0], output[0]);
  }

  /**
   * The verdict from what was read: {@code inputPerWord} how many records of each word were input,
   * {@code countsPerWord} how often each count of each word was committed.
   */
  public static OutputVerifier.Verdict compare(
      Map<String, Long> inputPerWord,
      Map<String, Map<Long, Integer>> countsPerWord,
      long input,
      long output) {
    long lost = 0;
    long duplicated = 0;
    for (Map.Entry<String, Long> word : inputPerWord.entrySet()) {
      Map<Long, Integer> emitted = countsPerWord.getOrDefault(word.getKey(), Map.of());
      for (long count = 1; count <= word.getValue(); count++) {
        int times = emitted.getOrDefault(count, 0);
        lost += times == 0 ? 1 : 0;
        duplicated += Math.max(0, times - 1);
      }
    }
    for (Map.Entry<String, Map<Long, Integer>> word : countsPerWord.entrySet()) {
      long expected = inputPerWord.getOrDefault(word.getKey(), 0L);
      for (Map.Entry<Long, Integer> emitted : word.getValue().entrySet()) {
        if (emitted.getKey() < 1 || emitted.getKey() > expected) {
          duplicated += emitted.getValue();
        }
      }
    }
    return new OutputVerifier.Verdict(input, output, lost, duplicated);
  }

  /** The count field of {@code word,count,id}. */
  private static long count(String value) {
    int first = value.indexOf(',');
    int last = value.lastIndexOf(',');
    return Long.parseLong(value, first + 1, last, 10);
  }
}

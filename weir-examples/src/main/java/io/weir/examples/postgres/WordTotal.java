package io.weir.examples.postgres;

import java.io.Serializable;

/**
 * A word's running aggregate after one more input record: how many records of the word so far and
 * the sum of their frequencies. {@code id} is the input record that made this update.
 */
public record WordTotal(long id, String word, long updates, long total) implements Serializable {
  /** The aggregate after the record {@code id} with {@code frequency}. */
  WordTotal next(long nextId, long frequency) {
    return new WordTotal(nextId, word, updates + 1, total + frequency);
  }

  static WordTotal first(long id, String word, long frequency) {
    return new WordTotal(id, word, 1, frequency);
  }
}

package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;

/** What a {@link SourceReader} says after one {@link SourceReader#pollNext} call. */
@PublicEvolving
public enum InputStatus {
  /** Call {@code pollNext} again: more records are at hand. */
  MORE_AVAILABLE,
  /** Nothing at hand now; the task waits for {@link SourceReader#isAvailable} (or for mail). */
  NOTHING_AVAILABLE,
  /** The reader is exhausted for good (a bounded source); {@code pollNext} is not called again. */
  END_OF_INPUT
}

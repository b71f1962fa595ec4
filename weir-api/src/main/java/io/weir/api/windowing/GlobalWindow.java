package io.weir.api.windowing;

import io.weir.api.annotation.PublicEvolving;

/**
 * The single window of all of a key's records, as count windows use it: it never ends, so its
 * results are emitted with timestamp {@link Long#MAX_VALUE}, as in Flink.
 */
@PublicEvolving
public record GlobalWindow() implements Window {
  private static final GlobalWindow INSTANCE = new GlobalWindow();

  public static GlobalWindow get() {
    return INSTANCE;
  }

  @Override
  public long maxTimestamp() {
    return Long.MAX_VALUE;
  }
}

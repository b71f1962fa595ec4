package io.weir.api.windowing;

import java.io.Serializable;

/**
 * A window of a keyed stream: a {@link TimeWindow}, or the one {@link GlobalWindow} of count
 * windows. Window values are kept in keyed state, so they are serializable and compare by value.
 */
public interface Window extends Serializable {
  /** The largest timestamp that belongs to the window; what the window's result is emitted with. */
  long maxTimestamp();
}

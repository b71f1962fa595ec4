package io.weir.api.windowing;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * A window of a keyed stream: a {@link TimeWindow}, or the one {@link GlobalWindow} of count
 * windows. Window values are kept in keyed state, so they are serializable and compare by value.
 */
@PublicEvolving
public interface Window extends Serializable {
  /** The largest timestamp that belongs to the window; what the window's result is emitted with. */
  long maxTimestamp();
}

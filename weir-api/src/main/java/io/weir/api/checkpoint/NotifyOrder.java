package io.weir.api.checkpoint;

import io.weir.api.annotation.PublicEvolving;

/** The order in which a task tells its chained operators that a checkpoint completed. */
@PublicEvolving
public enum NotifyOrder {
  /** Tail first: the sink before the source, as the chain stores its operators. The default. */
  REVERSE,
  /** Head first: the source before the sink. */
  FORWARD
}

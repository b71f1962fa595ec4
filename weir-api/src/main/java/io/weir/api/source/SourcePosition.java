package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * A source's position in one of its splits (a Kafka partition, say), as the source keeps it in its
 * operator (union) list state. Tools that explain a recovery ({@code weir inspect}, the dashboard's
 * recovery view) read such elements from a checkpoint without knowing the source that wrote them.
 * Implemented by the element class of the state; immutable.
 */
@PublicEvolving
public interface SourcePosition extends Serializable {
  /** The split, for people: for a Kafka partition, {@code topic-partition}. */
  String split();

  /** The next position the source reads in the split (a Kafka offset). */
  long position();
}

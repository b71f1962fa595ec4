package io.weir.api.graph;

import io.weir.api.annotation.Internal;

/** Whether an operator may join the chain of its input. */
@Internal
public enum ChainingStrategy {
  /** Join the input's chain when the edge allows it. */
  ALWAYS,
  /** Start a new chain here; later operators may join it ({@code startNewChain}). */
  HEAD,
  /** Never chain, neither to the input nor to a later operator ({@code disableChaining}). */
  NEVER
}

package io.weir.api.graph;

import io.weir.api.annotation.Internal;
import io.weir.api.functions.KeySelector;

/** How records travel along an edge between two operators. */
@Internal
public sealed interface Partitioning {
  /** Subtask i sends to subtask i; the only edge that can be chained. */
  record Forward() implements Partitioning {}

  /** Round robin over all downstream subtasks. */
  record Rebalance() implements Partitioning {}

  /** By key group of the record's key: {@code keyBy}. */
  record Hash(KeySelector<?, ?> keySelector) implements Partitioning {}

  /** Every record to every downstream subtask: {@code broadcast}. */
  record Broadcast() implements Partitioning {}

  Partitioning FORWARD = new Forward();
  Partitioning BROADCAST = new Broadcast();
  Partitioning REBALANCE = new Rebalance();
}

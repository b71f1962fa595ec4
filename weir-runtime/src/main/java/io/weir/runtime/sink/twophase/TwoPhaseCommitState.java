package io.weir.runtime.sink.twophase;

import io.weir.api.sink.TransactionHolder;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What a two-phase-commit sink subtask keeps in a checkpoint: the transaction open at the barrier,
 * the pre-committed transactions by checkpoint id, and the user context.
 */
record TwoPhaseCommitState<TXN, CONTEXT>(
    TransactionHolder<TXN> current,
    SortedMap<Long, TransactionHolder<TXN>> pending,
    Optional<CONTEXT> context) {

  TwoPhaseCommitState {
    Objects.requireNonNull(current, "current");
    pending = Collections.unmodifiableSortedMap(new TreeMap<>(pending));
    Objects.requireNonNull(context, "context");
  }
}

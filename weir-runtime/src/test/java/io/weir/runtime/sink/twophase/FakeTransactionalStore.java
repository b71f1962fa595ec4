package io.weir.runtime.sink.twophase;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An external transactional system, outside the sink: it outlives a crashed sink, keeps what was
 * pre-committed, and can be told to fail commits. Also keeps the log of the calls the sink made.
 * Thread-safe: a sink may commit on a thread of its own.
 */
final class FakeTransactionalStore {
  private final List<String> calls = new ArrayList<>();
  private final Map<Integer, List<String>> openTransactions = new HashMap<>();
  private final Set<Integer> preCommitted = new HashSet<>();
  private final Set<Integer> committedTransactions = new HashSet<>();
  private final List<String> committed = new ArrayList<>();
  private final Map<Integer, Deque<Exception>> commitFailures = new HashMap<>();
  private int lastTransaction;

  synchronized void log(String call) {
    calls.add(call);
  }

  synchronized List<String> calls() {
    return List.copyOf(calls);
  }

  synchronized int begin() {
    lastTransaction++;
    openTransactions.put(lastTransaction, new ArrayList<>());
    return lastTransaction;
  }

  synchronized void write(int transaction, String record) {
    openTransactions.get(transaction).add(record);
  }

  synchronized void preCommit(int transaction) {
    preCommitted.add(transaction);
  }

  /** Idempotent: a transaction already committed is left as it is. */
  synchronized void commit(int transaction) throws Exception {
    Deque<Exception> failures = commitFailures.getOrDefault(transaction, new ArrayDeque<>());
    if (!failures.isEmpty()) {
      throw failures.poll();
    }
    if (committedTransactions.contains(transaction)) {
      return;
    }
    if (!preCommitted.contains(transaction)) {
      throw new IllegalStateException("Transaction " + transaction + " was not pre-committed");
    }
    committedTransactions.add(transaction);
    committed.addAll(openTransactions.remove(transaction));
  }

  synchronized void abort(int transaction) {
    openTransactions.remove(transaction);
  }

  /** The next {@code failures.length} commits of the transaction throw these, in order. */
  synchronized void failCommits(int transaction, Exception... failures) {
    commitFailures.computeIfAbsent(transaction, t -> new ArrayDeque<>()).addAll(List.of(failures));
  }

  synchronized List<String> committedRecords() {
    return List.copyOf(committed);
  }

  synchronized boolean isOpen(int transaction) {
    return openTransactions.containsKey(transaction);
  }
}

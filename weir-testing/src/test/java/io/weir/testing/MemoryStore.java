package io.weir.testing;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A transactional store in memory that outlives the sinks writing to it, as an external system
 * outlives a crashed process. A commit can be made idempotent or not, to show what the crash matrix
 * finds.
 */
final class MemoryStore {
  private final Map<Integer, List<String>> transactions = new HashMap<>();
  private final Set<Integer> committedTransactions = new HashSet<>();
  private final List<String> committed = new ArrayList<>();
  private final boolean idempotentCommit;
  private int lastTransaction;

  MemoryStore(boolean idempotentCommit) {
    this.idempotentCommit = idempotentCommit;
  }

  int begin() {
    transactions.put(++lastTransaction, new ArrayList<>());
    return lastTransaction;
  }

  void write(int transaction, String record) {
    transactions.get(transaction).add(record);
  }

  void commit(int transaction) {
    if (!committedTransactions.add(transaction) && idempotentCommit) {
      return;
    }
    committed.addAll(transactions.get(transaction));
  }

  void abort(int transaction) {
    if (!committedTransactions.contains(transaction)) {
      transactions.put(transaction, new ArrayList<>());
    }
  }

  List<String> committed() {
    return List.copyOf(committed);
  }
}

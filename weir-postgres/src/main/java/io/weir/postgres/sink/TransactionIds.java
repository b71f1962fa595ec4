package io.weir.postgres.sink;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The global ids of a sink subtask's prepared transactions: {@code
 * weir.<job>.<sink>.<subtask>.<checkpoint>}, derived only from names that stay the same across
 * restarts, so that a new process finds the transactions of a killed one. Names are reduced to
 * letters, digits, {@code _} and {@code -} (so ids need no quoting and the dots separate the parts
 * unambiguously), long ones shortened with a hash, keeping ids under PostgreSQL's 200 bytes.
 */
record TransactionIds(String prefix) {
  private static final int MAX_NAME_LENGTH = 60;

  static TransactionIds of(String jobName, String sinkName, int subtaskIndex) {
    return new TransactionIds(
        "weir." + safe(jobName) + "." + safe(sinkName) + "." + subtaskIndex + ".");
  }

  /** The id of the transaction prepared at the barrier of {@code checkpointId}. */
  String globalId(long checkpointId) {
    return prefix + checkpointId;
  }

  /** Whether {@code globalId} is one of this subtask's ids: the prefix, then digits only. */
  boolean owns(String globalId) {
    return globalId.startsWith(prefix)
        && DIGITS.matcher(globalId.substring(prefix.length())).matches();
  }

  /** A {@code LIKE} pattern that finds candidates (an escaped prefix), checked by {@link #owns}. */
  String likePattern() {
    return prefix.replace("\\", "\\\\").replace("_", "\\_").replace("%", "\\%") + "%";
  }

  private static final Pattern DIGITS = Pattern.compile("[0-9]+");

  private static String safe(String name) {
    String safe = name.replaceAll("[^A-Za-z0-9_-]", "_");
    if (safe.length() <= MAX_NAME_LENGTH) {
      return safe;
    }
    String hash = String.format(Locale.ROOT, "%08x", name.hashCode());
    return safe.substring(0, MAX_NAME_LENGTH - 9) + "_" + hash;
  }
}

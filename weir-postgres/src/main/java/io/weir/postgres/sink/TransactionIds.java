package io.weir.postgres.sink;

import io.weir.api.sink.TransactionIdParts;
import java.util.regex.Pattern;

/**
 * The global ids of a sink subtask's prepared transactions: {@code
 * weir.<job>.<sink>.<subtask>.<checkpoint>}, derived only from names that stay the same across
 * restarts, so that a new process finds the transactions of a killed one. Names are escaped by
 * {@link TransactionIdParts} (letters, digits and {@code -} as they are, anything else as {@code _}
 * and hex), so two different names never share ids, ids need no quoting, the dots separate the
 * parts unambiguously, and long names are shortened with a hash, keeping ids under PostgreSQL's 200
 * bytes. The prefix is also the sink subtask's key in the commit log.
 */
record TransactionIds(String prefix) {
  private static final int MAX_NAME_LENGTH = 60;

  /** The name a sink without an operator name of its own has (the operator's kind). */
  private static final String UNNAMED_SINK = "Sink";

  static TransactionIds of(String jobName, String sinkName, int subtaskIndex) {
    return new TransactionIds(sinkPrefix(jobName, sinkName) + subtaskIndex + ".");
  }

  /** {@code weir.<job>.<sink>.}: what every id of the sink, of any subtask, starts with. */
  static String sinkPrefix(String jobName, String sinkName) {
    return "weir."
        + TransactionIdParts.escaped(jobName, MAX_NAME_LENGTH)
        + "."
        + TransactionIdParts.escaped(sinkName, MAX_NAME_LENGTH)
        + ".";
  }

  /**
   * The name of the sink in its ids: the sink id the job set, else the operator's name, else (an
   * unnamed sink) the operator's uid, so that two unnamed sinks of a job never share ids.
   */
  static String sinkName(JdbcSinkConfig<?> config, String operatorName, String operatorUid) {
    return config
        .explicitSinkId()
        .orElse(UNNAMED_SINK.equals(operatorName) ? operatorUid : operatorName);
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
}

package io.weir.runtime.graph;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.api.sink.RecoverableSink;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The operators of a job that keep transactions outside it, and the check that no two of them would
 * use the same transaction ids: each would commit, roll back or prove the other's transactions,
 * which loses or doubles records without a failure. Refused when the job is built.
 */
public final class TransactionIdSpaces {
  private TransactionIdSpaces() {}

  /**
   * The operator's transactions to settle: a sink's, or a source's that writes transactionally too
   * (a Kafka source's dead-letter topic); null for any other operator.
   */
  public static RecoverableSink recoverableSinkOf(OperatorSpec spec) {
    if (spec instanceof OperatorSpec.Sink sink
        && sink.function() instanceof RecoverableSink recoverable) {
      return recoverable;
    }
    if (spec instanceof OperatorSpec.Source source
        && source.function() instanceof RecoverableSink recoverable) {
      return recoverable;
    }
    return null;
  }

  /**
   * @throws IllegalArgumentException naming both operators and the ids, when two operators of the
   *     job would share transaction ids
   */
  static void check(String jobName, List<Transformation> transformations) {
    Map<String, Transformation> owners = new HashMap<>();
    for (Transformation operator : transformations) {
      RecoverableSink sink = recoverableSinkOf(operator.spec());
      if (sink == null) {
        continue;
      }
      Optional<String> space =
          sink.transactionIdSpace(jobName, operator.displayName(), operator.uid());
      if (space.isEmpty()) {
        continue;
      }
      Transformation other = owners.putIfAbsent(space.get(), operator);
      if (other != null) {
        throw new IllegalArgumentException(
            "Operators '"
                + other.displayName()
                + "' (uid "
                + other.uid()
                + ") and '"
                + operator.displayName()
                + "' (uid "
                + operator.uid()
                + ") of job '"
                + jobName
                + "' would share "
                + space.get()
                + "; give one of them another name or transaction id prefix");
      }
    }
  }
}

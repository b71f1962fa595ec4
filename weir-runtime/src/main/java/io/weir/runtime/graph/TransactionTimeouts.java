package io.weir.runtime.graph;

import io.weir.api.datastream.JobConfig;
import io.weir.api.graph.Transformation;
import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.TwoPhaseCommitOptions;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * The check, when the job is built, that a sink's transactions can wait as long as the job's
 * checkpoints and restarts may make them: a transaction begun at one barrier waits for the next
 * checkpoint (the interval, then up to the checkpoint timeout), and after a failure for a restart
 * (the restart strategy's delays) to commit it. This must fit within the share of the transaction
 * timeout at which the sinks fail their task ({@link TwoPhaseCommitOptions#AGE_LIMIT_RATIO}), else
 * a single expired checkpoint restarts the job, or a completed checkpoint's transaction that waits
 * for a restart is aborted by the external system. Checkpoints that expire one after the other (the
 * project tolerates any number) are left to the sinks' own age limit, at run time.
 */
final class TransactionTimeouts {
  private TransactionTimeouts() {}

  /**
   * @throws IllegalArgumentException in one line giving the figures and the settings to change,
   *     when a sink's transaction timeout is too short for the job's checkpoints and restarts
   */
  static void check(JobConfig config, List<Transformation> transformations) {
    if (config.checkpointInterval() == null) {
      return;
    }
    Duration restarts = config.restartStrategy().restartBudget();
    Duration needed = config.checkpointInterval().plus(config.checkpointTimeout()).plus(restarts);
    for (Transformation operator : transformations) {
      RecoverableSink sink = TransactionIdSpaces.recoverableSinkOf(operator.spec());
      Optional<Duration> timeout = sink == null ? Optional.empty() : sink.transactionTimeout();
      if (timeout.isEmpty()) {
        continue;
      }
      long limitMillis = (long) (timeout.get().toMillis() * TwoPhaseCommitOptions.AGE_LIMIT_RATIO);
      if (needed.toMillis() > limitMillis) {
        throw new IllegalArgumentException(
            "The transaction timeout of '"
                + operator.displayName()
                + "' ("
                + timeout.get().toMillis()
                + " ms) is too short for the job: checkpoint interval ("
                + config.checkpointInterval().toMillis()
                + " ms) + checkpoint timeout ("
                + config.checkpointTimeout().toMillis()
                + " ms) + restart delays ("
                + restarts.toMillis()
                + " ms) = "
                + needed.toMillis()
                + " ms is above "
                + Math.round(TwoPhaseCommitOptions.AGE_LIMIT_RATIO * 100)
                + " % of it ("
                + limitMillis
                + " ms); raise the sink's transaction timeout (and the broker's"
                + " transaction.max.timeout.ms if needed), or lower the checkpoint timeout,"
                + " the checkpoint interval or the restart delay");
      }
    }
  }
}

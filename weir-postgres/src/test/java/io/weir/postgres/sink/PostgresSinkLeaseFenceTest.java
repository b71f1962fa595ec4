package io.weir.postgres.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.weir.api.datastream.StaleLeaseEpochException;
import io.weir.api.functions.LeaseEpoch;
import io.weir.api.sink.SinkFunction;
import io.weir.postgres.testing.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two runners of one job whose file locks both "succeeded" (a network file system that ignores
 * them): the older holds lease epoch 1 of the checkpoint directory, the newer epoch 2. Once the
 * newer one's recovery step recorded its lease in the database, every commit, rollback and recovery
 * of the older one is refused there, and nothing the newer one did is undone.
 */
class PostgresSinkLeaseFenceTest {
  @RegisterExtension static final PostgresServerExtension postgres = new PostgresServerExtension();

  private static final String JOB = "orders";

  @TempDir Path directory;

  @Test
  void when_aNewerRunRecovered_then_theStaleRunsCommitIsRefusedAndEachIdCommitsOnce()
      throws Exception {
    // given: the older run committed checkpoint 1 and has records 5..9 in its open transaction
    postgres.execute("CREATE TABLE fenced_commits (id bigint NOT NULL)");
    LeaseEpoch older = lease(1);
    LeaseEpoch newer = lease(2);
    Path checkpointOne = directory.resolve("checkpoint-1");
    SinkDriver.recover(JOB, inserts("fenced_commits"), checkpointOne, older);
    SinkDriver stale = SinkDriver.start(JOB, 0, inserts("fenced_commits"), checkpointOne, older);
    stale.write(0, 5);
    stale.snapshot(1);
    stale.storeCheckpoint(checkpointOne);
    stale.notifyComplete(1);
    stale.write(5, 10);
    // when: the newer run recovers from checkpoint 1, then the older one completes checkpoint 2
    SinkDriver.recover(JOB, inserts("fenced_commits"), checkpointOne, newer);
    stale.snapshot(2);
    Throwable staleCommit = catchThrowable(() -> stale.notifyComplete(2));
    // then: the older run's commit is refused, its records stay uncommitted
    assertFencedLine(staleCommit, "fenced_commits", older, newer);
    assertThat(postgres.ids("fenced_commits")).containsExactlyElementsOf(range(0, 5));
    // and the newer run, reading the same input again from checkpoint 1, commits each id once
    SinkDriver fresh = SinkDriver.start(JOB, 0, inserts("fenced_commits"), checkpointOne, newer);
    fresh.write(5, 10);
    fresh.snapshot(2);
    fresh.notifyComplete(2);
    fresh.close();
    assertThat(postgres.ids("fenced_commits")).containsExactlyElementsOf(range(0, 10));
    assertThat(preparedIds()).isEmpty();
  }

  @Test
  void when_aNewerRunPrepared_then_theStaleRunsRecoveryAndStartRollBackNothing() throws Exception {
    // given: the older run committed checkpoint 1; the newer one recovered from it and prepared
    // the transaction of its checkpoint 2
    postgres.execute("CREATE TABLE fenced_rollbacks (id bigint NOT NULL)");
    LeaseEpoch older = lease(1);
    LeaseEpoch newer = lease(2);
    Path checkpointOne = directory.resolve("checkpoint-1");
    SinkDriver.recover(JOB, inserts("fenced_rollbacks"), checkpointOne, older);
    SinkDriver first = SinkDriver.start(JOB, 0, inserts("fenced_rollbacks"), checkpointOne, older);
    first.write(0, 5);
    first.snapshot(1);
    first.storeCheckpoint(checkpointOne);
    first.notifyComplete(1);
    SinkDriver.recover(JOB, inserts("fenced_rollbacks"), checkpointOne, newer);
    SinkDriver current =
        SinkDriver.start(JOB, 0, inserts("fenced_rollbacks"), checkpointOne, newer);
    current.write(5, 10);
    current.snapshot(2);
    List<String> preparedByTheNewerRun = preparedIds();
    assertThat(preparedByTheNewerRun).hasSize(1);
    // when: the older run recovers from checkpoint 1 again, and starts a subtask
    Throwable staleRecovery =
        catchThrowable(
            () -> SinkDriver.recover(JOB, inserts("fenced_rollbacks"), checkpointOne, older));
    Throwable staleStart =
        catchThrowable(
            () -> SinkDriver.start(JOB, 0, inserts("fenced_rollbacks"), checkpointOne, older));
    // then: both are refused, and the newer run's prepared transaction commits
    assertFencedLine(staleRecovery, "fenced_rollbacks", older, newer);
    assertFencedLine(staleStart, "fenced_rollbacks", older, newer);
    assertThat(preparedIds()).isEqualTo(preparedByTheNewerRun);
    current.notifyComplete(2);
    current.close();
    assertThat(postgres.ids("fenced_rollbacks")).containsExactlyElementsOf(range(0, 10));
  }

  private LeaseEpoch lease(long epoch) {
    return new LeaseEpoch(directory.resolve("checkpoints").resolve(JOB).toString(), epoch);
  }

  private static void assertFencedLine(
      Throwable failure, String sink, LeaseEpoch older, LeaseEpoch newer) {
    Throwable fenced = failure;
    while (fenced != null && !(fenced instanceof StaleLeaseEpochException)) {
      fenced = fenced.getCause();
    }
    assertThat(fenced).as("a StaleLeaseEpochException in %s", String.valueOf(failure)).isNotNull();
    assertThat(fenced.getMessage())
        .isEqualTo(
            "Sink '"
                + sink
                + "' of job 'orders' is fenced: this run holds "
                + older.describe()
                + ", and a newer run ("
                + newer.describe()
                + ") has recovered the sink since; stop this run");
  }

  private static SinkFunction<Long> inserts(String table) {
    return SinkDriver.exactlyOnceInserts(postgres.jdbcUrl(), table);
  }

  private static List<Long> range(long from, long to) {
    return LongStream.range(from, to).boxed().toList();
  }

  private static List<String> preparedIds() throws SQLException {
    try (Connection connection = postgres.connect()) {
      return new PreparedTransactions(connection)
          .list().stream().map(PreparedTransaction::globalId).toList();
    }
  }
}

package io.weir.postgres.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TransactionOutcome;
import io.weir.postgres.testing.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The job-level recovery step of the exactly-once sink ({@link RecoverableSink}, run on a copy of
 * the sink before any subtask starts) against a real server.
 */
class PostgresJobRecoveryTest {
  @RegisterExtension static final PostgresServerExtension postgres = new PostgresServerExtension();

  @TempDir Path directory;

  @Test
  void when_resumedWithOneSubtaskAfterFour_then_everyFormerSubtasksPreparedTransactionIsSettled()
      throws Exception {
    // given: four subtasks committed checkpoint 1, then prepared checkpoint 2, which never
    // completed
    postgres.execute("CREATE TABLE scaled (id bigint NOT NULL)");
    List<byte[]> checkpointOne = new ArrayList<>();
    List<SinkDriver> subtasks = new ArrayList<>();
    List<Long> committed = new ArrayList<>();
    for (int subtask = 0; subtask < 4; subtask++) {
      Path state = directory.resolve("subtask-" + subtask);
      SinkDriver driver = SinkDriver.start("scale", subtask, inserts("scaled"), state);
      long first = subtask * 100L;
      driver.write(first, first + 5);
      driver.snapshot(1);
      driver.storeCheckpoint(state);
      driver.notifyComplete(1);
      driver.write(first + 5, first + 10);
      driver.snapshot(2);
      checkpointOne.addAll(SinkDriver.storedState(state));
      committed.addAll(range(first, first + 5));
      subtasks.add(driver);
    }
    assertThat(preparedIds()).hasSize(4);
    // when: the recovery step of the job resumed from checkpoint 1 with parallelism 1
    List<TransactionOutcome> outcomes =
        ((RecoverableSink) inserts("scaled")).recoverTransactions(checkpointOne);
    // then: checkpoint 1 stays committed once, nothing of checkpoint 2 is prepared any more
    assertThat(outcomes).hasSize(4).noneMatch(TransactionOutcome::isDataLoss);
    assertThat(preparedIds()).isEmpty();
    assertThat(postgres.ids("scaled")).containsExactlyElementsOf(committed);
    for (SinkDriver driver : subtasks) {
      driver.close();
    }
  }

  @Test
  void when_aSavepointIsRestoredIntoANewDirectory_then_theCheckpointIdsItNumbersAgainCommit()
      throws Exception {
    // given: checkpoint 1 kept as a savepoint, then checkpoints 2 and 3 committed
    postgres.execute("CREATE TABLE forked (id bigint NOT NULL)");
    Path savepoint = directory.resolve("savepoint");
    SinkDriver first = SinkDriver.start("fork", 0, inserts("forked"), savepoint);
    first.write(0, 5);
    first.snapshot(1);
    first.storeCheckpoint(savepoint);
    first.notifyComplete(1);
    first.write(5, 10);
    first.snapshot(2);
    first.notifyComplete(2);
    first.write(10, 15);
    first.snapshot(3);
    first.notifyComplete(3);
    first.close();
    // when: the job restores the savepoint, and numbers its next checkpoint 2 again
    ((RecoverableSink) inserts("forked")).recoverTransactions(SinkDriver.storedState(savepoint));
    SinkDriver resumed = SinkDriver.start("fork", 0, inserts("forked"), savepoint);
    resumed.write(100, 105);
    resumed.snapshot(2);
    resumed.notifyComplete(2);
    resumed.close();
    // then: every checkpoint's records committed once
    List<Long> expected = new ArrayList<>(range(0, 15));
    expected.addAll(range(100, 105));
    assertThat(postgres.ids("forked")).containsExactlyElementsOf(expected);
    assertThat(preparedIds()).isEmpty();
  }

  private static SinkFunction<Long> inserts(String table) {
    return JdbcSink.<Long>exactlyOnce(postgres.jdbcUrl())
        .statement(
            "INSERT INTO " + table + " (id) VALUES (?)",
            (statement, id) -> statement.setLong(1, id))
        .build();
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

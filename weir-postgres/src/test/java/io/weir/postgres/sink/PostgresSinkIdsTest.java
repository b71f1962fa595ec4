package io.weir.postgres.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.graph.Transformation;
import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.postgres.testing.PostgresServerExtension;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.graph.TransactionIdSpaces;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The ids of the exactly-once sink's transactions never shared by two sinks, or two jobs. */
class PostgresSinkIdsTest {
  @RegisterExtension static final PostgresServerExtension postgres = new PostgresServerExtension();

  @TempDir Path directory;

  @Test
  void when_jobsNamedOrdersDotV1AndOrdersUnderscoreV1ShareADatabase_then_eachCommitsItsOwnRecords()
      throws Exception {
    // given: job orders.v1 prepared checkpoint 1, not committed yet
    postgres.execute("CREATE TABLE dotted (id bigint NOT NULL)");
    postgres.execute("CREATE TABLE underscored (id bigint NOT NULL)");
    SinkDriver dotted =
        SinkDriver.start("orders.v1", inserts("dotted"), directory.resolve("dotted"));
    dotted.write(0, 5);
    dotted.snapshot(1);
    dotted.storeCheckpoint(directory.resolve("dotted"));
    // when: job orders_v1 starts fresh and commits its own checkpoint 1, then orders.v1 commits
    SinkDriver underscored =
        SinkDriver.start("orders_v1", inserts("underscored"), directory.resolve("underscored"));
    underscored.write(100, 105);
    underscored.snapshot(1);
    underscored.storeCheckpoint(directory.resolve("underscored"));
    underscored.notifyComplete(1);
    underscored.close();
    dotted.notifyComplete(1);
    dotted.close();
    // then
    assertThat(postgres.ids("dotted")).containsExactlyElementsOf(range(0, 5));
    assertThat(postgres.ids("underscored")).containsExactlyElementsOf(range(100, 105));
    try (Connection connection = postgres.connect()) {
      assertThat(new PreparedTransactions(connection).list()).isEmpty();
    }
  }

  @Test
  void when_twoSinksOfAJobHaveNoName_then_theirTransactionIdsDiffer() {
    // given
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    DataStream<Long> numbers = env.addSource(new GeneratorSource<>(10, i -> i));
    numbers.addSink(inserts("first"));
    numbers.addSink(inserts("second"));
    // when
    JobGraph graph = JobGraphBuilder.build(env.plan("orders"));
    // then
    List<String> spaces = new ArrayList<>();
    for (Transformation operator : graph.operators()) {
      RecoverableSink sink = TransactionIdSpaces.recoverableSinkOf(operator.spec());
      if (sink != null) {
        spaces.add(
            sink.transactionIdSpace("orders", operator.displayName(), operator.uid())
                .orElseThrow());
      }
    }
    assertThat(spaces).hasSize(2).doesNotHaveDuplicates();
  }

  @Test
  void when_twoSinksOfAJobWouldShareTransactionIds_then_theJobIsRefusedInOneLineNamingBoth() {
    // given: two sinks named alike
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    DataStream<Long> numbers = env.addSource(new GeneratorSource<>(10, i -> i));
    numbers.addSink(inserts("first")).name("totals").uid("first-totals");
    numbers.addSink(inserts("second")).name("totals").uid("second-totals");
    // when / then
    assertThatThrownBy(() -> JobGraphBuilder.build(env.plan("orders")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("first-totals")
        .hasMessageContaining("second-totals")
        .hasMessageContaining("weir.orders.Sink_3a_20totals.")
        .hasMessageNotContaining("\n");
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
}

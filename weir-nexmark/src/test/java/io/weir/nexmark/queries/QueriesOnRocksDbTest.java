package io.weir.nexmark.queries;

import io.weir.api.state.StateBackends;
import io.weir.kafka.testing.KafkaBrokerExtension;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each query on the RocksDB state backend, which keeps every window's contents and keyed value
 * serialized: a state type that its serializer cannot write fails here, where the heap, which keeps
 * objects and serializes only what a checkpoint catches, may pass. Same events and SQL as {@link
 * QueriesOnKafkaTest}.
 */
class QueriesOnRocksDbTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir static Path checkpoints;

  private static QueryOnKafkaRun run;

  @BeforeAll
  static void writeEvents() {
    run = new QueryOnKafkaRun(kafka.bootstrapServers(), checkpoints);
    run.writeEvents();
  }

  static Stream<String> queries() {
    return NexmarkQueries.all().stream().map(NexmarkQuery::name);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("queries")
  void when_queryRunsOnRocksDb_then_itsOutputEqualsTheSql(String query) throws Exception {
    run.assertMatchesSql(NexmarkQueries.named(query).orElseThrow(), StateBackends.rocksdb());
  }
}

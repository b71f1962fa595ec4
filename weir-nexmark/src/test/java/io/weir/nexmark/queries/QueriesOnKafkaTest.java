package io.weir.nexmark.queries;

import io.weir.api.state.StateBackends;
import io.weir.kafka.testing.KafkaBrokerExtension;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each query as a user runs it on the heap state backend: events written to a topic by the
 * generator, the query from Kafka to Kafka exactly once, and its committed output equal, row for
 * row, to the same query in SQL over the same events. {@link QueriesOnRocksDbTest} runs them on
 * RocksDB.
 */
class QueriesOnKafkaTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir static Path checkpoints;

  private static QueryOnKafkaRun run;

  @BeforeAll
  static void writeEvents() {
    run = new QueryOnKafkaRun(kafka.bootstrapServers(), checkpoints);
    run.writeEvents();
  }

  @Test
  void when_q0RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query0());
  }

  @Test
  void when_q1RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query1());
  }

  @Test
  void when_q2RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query2());
  }

  @Test
  void when_q7RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query7());
  }

  @Test
  void when_q3RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query3());
  }

  @Test
  void when_q4RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query4());
  }

  @Test
  void when_q5RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query5());
  }

  @Test
  void when_q6RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query6());
  }

  @Test
  void when_q8RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query8());
  }

  @Test
  void when_q9RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query9());
  }

  @Test
  void when_q10RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query10());
  }

  @Test
  void when_q11RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query11());
  }

  @Test
  void when_q12RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query12());
  }

  @Test
  void when_q13RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query13());
  }

  @Test
  void when_q18RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query18());
  }

  @Test
  void when_q19RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query19());
  }

  @Test
  void when_q20RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query20());
  }

  @Test
  void when_q14RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query14());
  }

  @Test
  void when_q15RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query15());
  }

  @Test
  void when_q16RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query16());
  }

  @Test
  void when_q17RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query17());
  }

  @Test
  void when_q21RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query21());
  }

  @Test
  void when_q22RunsFromKafkaToKafka_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query22());
  }

  private void assertMatchesSql(NexmarkQuery<?> query) throws Exception {
    run.assertMatchesSql(query, StateBackends.heap());
  }
}

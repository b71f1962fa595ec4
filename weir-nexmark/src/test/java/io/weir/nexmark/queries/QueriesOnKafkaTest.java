package io.weir.nexmark.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.state.StateBackend;
import io.weir.api.state.StateBackends;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.job.EventInput;
import io.weir.nexmark.job.QueryJob;
import io.weir.nexmark.job.ResultOutput;
import io.weir.nexmark.kafka.EventTopicWriter;
import io.weir.nexmark.kafka.EventTopics;
import io.weir.nexmark.oracle.CheckResult;
import io.weir.nexmark.oracle.QueryCheck;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each query as a user runs it: events written to a topic by the generator, the query from Kafka to
 * Kafka exactly once, and its committed output equal, row for row, to the same query in SQL over
 * the same events.
 */
class QueriesOnKafkaTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  // A slow event clock from ten seconds before midnight: 4,000 events span 20 s of event time, so
  // windowed queries see several windows, and q17 two days.
  private static final GeneratorConfig CONFIG =
      new GeneratorConfig(0, 200, Instant.parse("2026-01-01T23:59:50Z"), 100);
  private static final long EVENTS = 4_000;
  private static final String EVENTS_TOPIC = "nexmark-events";

  @TempDir static Path checkpoints;

  @BeforeAll
  static void writeEvents() {
    // The events' times lie in the past: a topic that deleted records by age would lose them.
    new EventTopics(kafka.bootstrapServers()).createIfMissing(EVENTS_TOPIC, 3);
    new EventTopicWriter(kafka.bootstrapServers(), EVENTS_TOPIC)
        .write(new EventGenerator(CONFIG), EVENTS, written -> {});
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
  void when_q7RunsOnRocksDb_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query7(), StateBackends.rocksdb());
  }

  @Test
  void when_q17RunsOnRocksDb_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query17(), StateBackends.rocksdb());
  }

  @Test
  void when_q4RunsOnRocksDb_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query4(), StateBackends.rocksdb());
  }

  @Test
  void when_q6RunsOnRocksDb_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query6(), StateBackends.rocksdb());
  }

  @Test
  void when_q19RunsOnRocksDb_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query19(), StateBackends.rocksdb());
  }

  @Test
  void when_q20RunsOnRocksDb_then_itsOutputEqualsTheSql() throws Exception {
    assertMatchesSql(new Query20(), StateBackends.rocksdb());
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
    assertMatchesSql(query, StateBackends.heap());
  }

  private void assertMatchesSql(NexmarkQuery<?> query, StateBackend backend) throws Exception {
    // given
    String run = query.name() + "-" + backend.name();
    String resultsTopic = run + "-results";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), resultsTopic, 2);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.setStateBackend(backend);
    env.setCheckpointDirectory(checkpoints.resolve(run));
    Duration interval = Duration.ofMillis(500);
    QueryJob.build(
        env,
        query,
        new EventInput.FromKafka(
            kafka.bootstrapServers(), EVENTS_TOPIC, run, CONFIG.maxOutOfOrderness(), true),
        new ResultOutput.ToKafka(
            kafka.bootstrapServers(), resultsTopic, "nexmark-" + run, interval),
        interval);

    // when
    JobResult job = env.execute("nexmark-" + run);

    // then: a read_committed reader sees everything as soon as the job ended
    List<String> committed =
        KafkaTestClients.readAll(kafka.bootstrapServers(), resultsTopic, "read_committed");
    CheckResult result = QueryCheck.compare(query, CONFIG, EVENTS, committed);
    assertThat(result.line())
        .as("%s", job)
        .isEqualTo(query.name() + ": rows=" + result.rows() + " matches-sql=true");
    assertThat(result.rows()).isPositive();
  }
}

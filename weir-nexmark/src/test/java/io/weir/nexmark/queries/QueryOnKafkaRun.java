package io.weir.nexmark.queries;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.state.StateBackend;
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

/**
 * A query as a user runs it, on one broker: events written to a topic by the generator, the query
 * from Kafka to Kafka exactly once on a state backend, and its committed output compared, row for
 * row, with the same query in SQL over the same events.
 */
final class QueryOnKafkaRun {
  // A slow event clock from ten seconds before midnight: 4,000 events span 20 s of event time, so
  // windowed queries see several windows, and q17 two days.
  private static final GeneratorConfig CONFIG =
      new GeneratorConfig(0, 200, Instant.parse("2026-01-01T23:59:50Z"), 100);
  private static final long EVENTS = 4_000;
  private static final String EVENTS_TOPIC = "nexmark-events";
  private static final Duration INTERVAL = Duration.ofMillis(500);

  private final String bootstrapServers;
  private final Path checkpoints;

  /**
   * @param checkpoints the directory under which each run keeps its checkpoints
   */
  QueryOnKafkaRun(String bootstrapServers, Path checkpoints) {
    this.bootstrapServers = bootstrapServers;
    this.checkpoints = checkpoints;
  }

  /** Writes the events every run reads; once per broker. */
  void writeEvents() {
    // The events' times lie in the past: a topic that deleted records by age would lose them.
    new EventTopics(bootstrapServers).createIfMissing(EVENTS_TOPIC, 3);
    new EventTopicWriter(bootstrapServers, EVENTS_TOPIC)
        .write(new EventGenerator(CONFIG), EVENTS, written -> {});
  }

  /** Runs {@code query} on {@code backend} and asserts that its committed output is the SQL's. */
  void assertMatchesSql(NexmarkQuery<?> query, StateBackend backend) throws Exception {
    // given
    String run = query.name() + "-" + backend.name();
    String resultsTopic = run + "-results";
    KafkaTestClients.createTopic(bootstrapServers, resultsTopic, 2);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.setParallelism(2);
    env.setStateBackend(backend);
    // These runs inject no failure: the first one fails the test with its cause, where the
    // default would restart for ever.
    env.setRestartStrategy(RestartStrategy.none());
    env.setCheckpointDirectory(checkpoints.resolve(run));
    QueryJob.build(
        env,
        query,
        new EventInput.FromKafka(
            bootstrapServers, EVENTS_TOPIC, run, CONFIG.maxOutOfOrderness(), true),
        new ResultOutput.ToKafka(bootstrapServers, resultsTopic, "nexmark-" + run, INTERVAL),
        INTERVAL);

    // when
    JobResult job = env.execute("nexmark-" + run);

    // then: a read_committed reader sees everything as soon as the job ended
    List<String> committed =
        KafkaTestClients.readAll(bootstrapServers, resultsTopic, "read_committed");
    CheckResult result = QueryCheck.compare(query, CONFIG, EVENTS, committed);
    assertThat(result.line())
        .as("%s", job)
        .isEqualTo(query.name() + ": rows=" + result.rows() + " matches-sql=true");
    assertThat(result.rows()).isPositive();
  }
}

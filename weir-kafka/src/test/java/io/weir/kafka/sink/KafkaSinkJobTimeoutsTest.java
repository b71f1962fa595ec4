package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.graph.JobGraphBuilder;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** A job whose checkpoints and restarts may outwait its Kafka sink's transactions is refused. */
class KafkaSinkJobTimeoutsTest {
  private final StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();

  private void seedWithSinkTimeout(Duration transactionTimeout) {
    env.addSource(new GeneratorSource<>(10, i -> "record-" + i))
        .addSink(
            KafkaSink.<String>builder()
                .bootstrapServers("127.0.0.1:9092")
                .topic("bar")
                .serializer(KafkaRecordSerializer.utf8())
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix("seed")
                .transactionTimeout(transactionTimeout)
                .build())
        .name("Example Sink");
  }

  @Test
  void when_checkpointTimeoutAndRestartsFitTheTransactionTimeout_then_theJobBuilds() {
    env.enableCheckpointing(Duration.ofSeconds(1));
    seedWithSinkTimeout(Duration.ofMinutes(15));

    assertThat(JobGraphBuilder.build(env.plan("seed")).operators()).hasSize(2);
  }

  @Test
  void
      when_checkpointTimeoutPlusRestartsOutlastTheTransactionTimeout_then_oneLineGivesTheFigures() {
    env.enableCheckpointing(Duration.ofSeconds(1));
    env.config().checkpointTimeout(Duration.ofMinutes(10));
    env.config().restartStrategy(RestartStrategy.fixedDelay(10, Duration.ofSeconds(30)));
    seedWithSinkTimeout(Duration.ofMinutes(12));

    assertThatThrownBy(() -> JobGraphBuilder.build(env.plan("seed")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "The transaction timeout of 'Sink: Example Sink' (720000 ms) is too short for the job:"
                + " checkpoint interval (1000 ms) + checkpoint timeout (600000 ms) + restart"
                + " delays (300000 ms) = 901000 ms is above 90 % of it (648000 ms); raise the"
                + " sink's transaction timeout (and the broker's transaction.max.timeout.ms if"
                + " needed), or lower the checkpoint timeout, the checkpoint interval or the"
                + " restart delay");
  }
}

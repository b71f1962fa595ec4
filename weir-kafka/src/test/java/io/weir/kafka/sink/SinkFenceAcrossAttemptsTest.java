package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fence a sink subtask sends beside its start, for the ids of its pool beyond the first two,
 * may still be in flight when its attempt fails; the job's next attempt uses the same ids, and a
 * fence landing after it began and pre-committed a transaction under one of them would abort that
 * transaction.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class SinkFenceAcrossAttemptsTest {
  private static final long RECORDS = 3000;
  private static final long RECORDS_PER_SECOND = 100;

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir Path directory;

  @Test
  void when_theFenceOfAFailedAttemptIsHeld_then_theNextAttemptWaitsForItAndEveryIdIsCommittedOnce()
      throws Exception {
    // given: attempt 0's fence of ids 2-4 held for 20 s; attempt 0 fails at its first snapshot;
    // the first commit of attempt 1 held for 40 s, so its transactions take ids 2-4 and are
    // pre-committed while the held fence is still to land
    String output = "late-fence-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.enableCheckpointing(Duration.ofMillis(500));
    env.setCheckpointDirectory(directory.resolve("checkpoints"));
    env.config()
        .failpoints(
            "sink.fence.before=pause(20000)@1,task.snapshot.after=throw@1,"
                + "sink.commit.before=pause(40000)@1");
    env.addSource(new GeneratorSource<>(RECORDS, i -> "id-" + i, RECORDS_PER_SECOND))
        .addSink(
            KafkaSink.<String>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topic(output)
                .serializer(KafkaRecordSerializer.utf8())
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix("late-fence")
                .transactionalIdPoolSize(5)
                .build());

    // when
    env.execute("late-fence");

    // then: every id once
    Map<String, Long> expected =
        LongStream.range(0, RECORDS)
            .mapToObj(i -> "id-" + i)
            .collect(Collectors.toMap(Function.identity(), id -> 1L, Long::sum, TreeMap::new));
    assertThat(countsOf(committed(output))).isEqualTo(expected);
  }

  private static List<String> committed(String topic) {
    return KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed");
  }

  private static Map<String, Long> countsOf(List<String> values) {
    return values.stream()
        .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()));
  }
}

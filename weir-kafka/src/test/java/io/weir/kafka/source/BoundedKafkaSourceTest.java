package io.weir.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.sink.SinkFunction;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bounded Kafka source on a real broker, through its enumerator: the ends of the partitions are
 * captured at the job's first start and travel in the splits, each reader ends once told it gets no
 * more splits and read its own to their stops, and a restored job reads to the same ends. Each test
 * counts the committed output of an exactly-once sink against the records produced before the first
 * start.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class BoundedKafkaSourceTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  private static final int PARTITIONS = 2;

  @TempDir Path directory;

  @ParameterizedTest(name = "parallelism {0}")
  @ValueSource(ints = {1, 3})
  void when_aBoundedJobReadsTwoPartitions_then_everyRecordOnceAndTheJobFinishes(int parallelism)
      throws Exception {
    // given: more readers than partitions at parallelism 3, so one reader gets no split
    Topics topics = Topics.create("finishes-p" + parallelism);
    produce(topics.input(), ids(0, 300));

    // when: the job runs to its end
    StreamEnvironment env = environment(parallelism);
    env.addSource(source(topics)).uid("in").addSink(sink(topics)).uid("out");
    env.execute("bounded-p" + parallelism);

    // then
    assertThat(committed(topics)).containsExactlyInAnyOrderElementsOf(ids(0, 300));
  }

  @Test
  void when_recordsAreProducedAfterTheStart_then_theJobEndsWithoutThem() throws Exception {
    // given: the job holds its first record until more records were produced
    Topics topics = Topics.create("after-start");
    produce(topics.input(), ids(0, 200));
    HoldFirstRecord.reset();
    StreamEnvironment env = environment(2);
    env.addSource(source(topics))
        .uid("in")
        .map(new HoldFirstRecord())
        .uid("hold")
        .addSink(sink(topics))
        .uid("out");
    JobClient job = env.executeAsync("bounded-after-start");
    assertThat(HoldFirstRecord.reached.await(60, TimeUnit.SECONDS)).isTrue();

    // when
    produce(topics.input(), ids(200, 400));
    HoldFirstRecord.released.countDown();
    job.awaitResult();

    // then: what was there at the start, once each
    assertThat(committed(topics)).containsExactlyInAnyOrderElementsOf(ids(0, 200));
  }

  @ParameterizedTest(name = "parallelism {0}, then {1}")
  @CsvSource({"1, 3", "3, 1", "2, 2"})
  void when_haltedAfterACheckpointAndRestored_then_readsToTheFirstStartsEndsOnce(
      int before, int after) throws Exception {
    // given: a slowed job that committed a checkpoint's records, then more records produced
    Topics topics = Topics.create("restored-p" + before + "-p" + after);
    produce(topics.input(), ids(0, 3_000));
    StreamEnvironment first = environment(before);
    first
        .addSource(source(topics))
        .uid("in")
        .map(new Slow(Duration.ofMillis(5)))
        .uid("slow")
        .addSink(sink(topics))
        .uid("out");
    JobClient job = first.executeAsync("bounded-halted");
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> !committed(topics).isEmpty());
    produce(topics.input(), ids(3_000, 4_000));

    // when: halted with a savepoint and restored from it at another parallelism
    Path savepoint =
        job.stopWithSavepoint(directory.resolve("savepoint")).get(60, TimeUnit.SECONDS);
    job.awaitResult();
    assertThat(committed(topics)).hasSizeLessThan(3_000);
    StreamEnvironment second = environment(after).fromCheckpoint(savepoint);
    second
        .addSource(source(topics))
        .uid("in")
        .map(new Slow(Duration.ZERO))
        .uid("slow")
        .addSink(sink(topics))
        .uid("out");
    second.execute("bounded-restored");

    // then: every record there was at the first start, once; none produced after it
    assertThat(committed(topics)).containsExactlyInAnyOrderElementsOf(ids(0, 3_000));
  }

  /** Holds the first record of the job until the test releases it. */
  static final class HoldFirstRecord implements MapFunction<String, String> {
    private static final long serialVersionUID = 1L;
    // The job's functions are copies: the test reaches them through statics.
    static CountDownLatch reached;
    static CountDownLatch released;

    static void reset() {
      reached = new CountDownLatch(1);
      released = new CountDownLatch(1);
    }

    @Override
    public String map(String value) throws Exception {
      if (reached.getCount() > 0) {
        reached.countDown();
        released.await();
      }
      return value;
    }
  }

  /** Slows the job so that it is halted before its end. */
  static final class Slow implements MapFunction<String, String> {
    private static final long serialVersionUID = 1L;
    private final Duration perRecord;

    Slow(Duration perRecord) {
      this.perRecord = perRecord;
    }

    @Override
    public String map(String value) throws Exception {
      Thread.sleep(perRecord.toMillis());
      return value;
    }
  }

  /** One test's topics, named apart from the other tests' on the same broker. */
  record Topics(String input, String output) {
    static Topics create(String name) {
      Topics topics = new Topics(name + "-in", name + "-out");
      KafkaTestClients.createTopic(kafka.bootstrapServers(), topics.input(), PARTITIONS);
      KafkaTestClients.createTopic(kafka.bootstrapServers(), topics.output(), PARTITIONS);
      return topics;
    }
  }

  private StreamEnvironment environment(int parallelism) {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setCheckpointDirectory(directory.resolve("checkpoints"));
    return env;
  }

  private static KafkaSource<String> source(Topics topics) {
    return KafkaSource.<String>builder()
        .bootstrapServers(kafka.bootstrapServers())
        .topics(topics.input())
        .groupId(topics.input() + "-job")
        .startingOffsets(StartingOffsets.EARLIEST)
        .deserializer(KafkaRecordDeserializer.utf8Values())
        .bounded()
        .build();
  }

  private static SinkFunction<String> sink(Topics topics) {
    return KafkaSink.<String>builder()
        .bootstrapServers(kafka.bootstrapServers())
        .topic(topics.output())
        .serializer(KafkaRecordSerializer.utf8())
        .transactionalIdPrefix(topics.output() + "-sink")
        .build();
  }

  private static List<String> ids(int from, int to) {
    return IntStream.range(from, to).mapToObj(Integer::toString).toList();
  }

  private static void produce(String topic, List<String> values) {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      for (String value : values) {
        // Spread over both partitions by id, not as the producer's sticky batches fall.
        int partition = Integer.parseInt(value) % PARTITIONS;
        producer.send(new ProducerRecord<>(topic, partition, null, value));
      }
      producer.flush();
    }
  }

  private static List<String> committed(Topics topics) {
    return KafkaTestClients.readAll(kafka.bootstrapServers(), topics.output(), "read_committed");
  }
}

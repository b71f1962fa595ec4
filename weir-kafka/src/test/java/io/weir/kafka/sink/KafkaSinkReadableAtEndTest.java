package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * A job's successful end means its output is readable: the brokers write a commit's markers a
 * moment after the commit returned, and the sink waits for them after its last commit, so a plain
 * {@code read_committed} reader right after the job ended reads every record.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KafkaSinkReadableAtEndTest {
  private static final int PARTITIONS = 4;

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir Path directory;

  private final ListAppender<ILoggingEvent> log = new ListAppender<>();
  private final Logger sinkLogger =
      (Logger) LoggerFactory.getLogger(TransactionalKafkaSink.class.getName());

  @BeforeEach
  void captureTheSinksLog() {
    log.start();
    sinkLogger.addAppender(log);
  }

  @AfterEach
  void releaseTheSinksLog() {
    sinkLogger.detachAppender(log);
  }

  @Test
  void when_boundedJobsEnd_then_aReadCommittedReaderRightAfterEachReadsEveryRecordOnce()
      throws Exception {
    // given: one job after another, each into a topic of its own; without the sink's wait about
    // one job in five ended before a reader could see its last transaction
    int jobs = 10;
    long records = 2000;
    for (int job = 0; job < jobs; job++) {
      String output = "readable-at-end-" + job;
      KafkaTestClients.createTopic(kafka.bootstrapServers(), output, PARTITIONS);

      try (KafkaConsumer<byte[], byte[]> reader =
          KafkaTestClients.reader(kafka.bootstrapServers(), output, "read_committed")) {

        // when
        runBoundedJob(output, "readable-" + job, 2, records, Duration.ofSeconds(30));

        // then: read at once, without waiting for the transactions to be decided
        List<String> read = valuesOf(KafkaTestClients.readToEnd(reader));
        assertThat(countsOf(read)).as("job %d", job).isEqualTo(expectedCounts(records));
      }
    }
    assertThat(warnings()).isEmpty();
  }

  @Test
  void when_anotherProducerHoldsATransactionOpenOnThePartition_then_theJobEndsByTheTimeout()
      throws Exception {
    // given: another producer's transaction open on the output's only partition, holding its last
    // stable offset for the broker's transaction timeout
    String output = "readable-at-end-held";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "another-writer");
    config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) Duration.ofMinutes(5).toMillis());
    try (KafkaProducer<String, String> other = new KafkaProducer<>(config)) {
      other.initTransactions();
      other.beginTransaction();
      other.send(new ProducerRecord<>(output, 0, null, "open")).get();
      Duration timeout = Duration.ofSeconds(3);

      // when
      long start = System.nanoTime();
      runBoundedJob(output, "readable-held", 1, 100, timeout);
      Duration took = Duration.ofNanos(System.nanoTime() - start);

      // then: the job waited out its timeout and no longer, and said why nothing is lost
      assertThat(took).isGreaterThanOrEqualTo(timeout).isLessThan(timeout.multipliedBy(10));
      assertThat(warnings())
          .singleElement()
          .asString()
          .contains("partitions [0] of topic '" + output + "' not yet readable")
          .contains("an open transaction of another producer")
          .contains("Nothing is lost");
      other.abortTransaction();
    }
    // and: once the other transaction is aborted, the job's records are readable
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        countsOf(
                            KafkaTestClients.readAll(
                                kafka.bootstrapServers(), output, "read_committed")))
                    .isEqualTo(expectedCounts(100)));
  }

  private void runBoundedJob(
      String output, String name, int parallelism, long records, Duration readableTimeout)
      throws JobExecutionException {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setCheckpointDirectory(directory.resolve(name));
    env.addSource(new GeneratorSource<>(records, i -> "id-" + i))
        .addSink(
            KafkaSink.<String>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topic(output)
                .serializer(KafkaRecordSerializer.utf8())
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix(name)
                .readableAtEndTimeout(readableTimeout)
                .build());
    env.execute(name);
  }

  private List<String> warnings() {
    return log.list.stream()
        .filter(event -> event.getLevel() == Level.WARN)
        .map(ILoggingEvent::getFormattedMessage)
        .toList();
  }

  private static List<String> valuesOf(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream()
        .map(record -> new String(record.value(), StandardCharsets.UTF_8))
        .toList();
  }

  private static Map<String, Long> expectedCounts(long records) {
    return countsOf(LongStream.range(0, records).mapToObj(i -> "id-" + i).toList());
  }

  private static Map<String, Long> countsOf(List<String> values) {
    return values.stream()
        .collect(Collectors.toMap(Function.identity(), id -> 1L, Long::sum, TreeMap::new));
  }
}

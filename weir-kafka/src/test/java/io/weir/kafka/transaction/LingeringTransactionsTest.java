package io.weir.kafka.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.sink.RecoverableSink;
import io.weir.kafka.sink.DeliveryGuarantee;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.kafka.testing.OpenTransactionsProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class LingeringTransactionsTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  private static final Duration LONG_TIMEOUT = Duration.ofMinutes(5);

  @Test
  void when_jobRestartsFresh_then_lingeringTransactionsAreAbortedExceptThoseToKeep()
      throws Exception {
    // given: three open transactions of a killed job, one of another job
    String topic = "lingering";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(), topic, 5, LONG_TIMEOUT, "job-a-0", "job-a-1", "job-b-0")) {
      child.kill();
    }
    try (LingeringTransactions lingering = new LingeringTransactions(clientConfig())) {
      List<OpenTransaction> open = lingering.list("job-a-");
      assertThat(open)
          .extracting(OpenTransaction::transactionalId)
          .containsExactly("job-a-0", "job-a-1");
      assertThat(open.get(0).partitions())
          .extracting(Object::toString)
          .containsExactly("lingering-0");
      assertThat(open.get(0).state()).isEqualTo("Ongoing");

      // when
      List<OpenTransaction> aborted =
          lingering.abortWhere(id -> id.startsWith("job-a-") && !id.equals("job-a-1"));

      // then
      assertThat(aborted).extracting(OpenTransaction::transactionalId).containsExactly("job-a-0");
      assertThat(lingering.list("job-"))
          .extracting(OpenTransaction::transactionalId)
          .containsExactlyInAnyOrder("job-a-1", "job-b-0");
    }
  }

  @Test
  void when_abortingASinksIdsByPattern_then_aSinkWhosePrefixExtendsItIsUntouched()
      throws Exception {
    // given: open transactions of sink "orders" and of sink "orders-1"
    String topic = "lingering-exact";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(),
            topic,
            3,
            LONG_TIMEOUT,
            "orders-0-1",
            "orders-1-0-1",
            "orders-x")) {
      child.kill();
    }
    try (LingeringTransactions lingering = new LingeringTransactions(clientConfig())) {
      // when
      List<OpenTransaction> aborted =
          lingering.abortMatching(Pattern.compile(Pattern.quote("orders") + "-\\d+-\\d+"));

      // then
      assertThat(aborted)
          .extracting(OpenTransaction::transactionalId)
          .containsExactly("orders-0-1");
      assertThat(lingering.list("orders"))
          .extracting(OpenTransaction::transactionalId)
          .containsExactlyInAnyOrder("orders-1-0-1", "orders-x");
      lingering.abortMatching(Pattern.compile("orders.*"));
    }
  }

  @Test
  void when_aFreshStartAbortsBesideItsSubtasks_then_itNeverFencesAnIdASubtaskTakes()
      throws Exception {
    // given: open transactions an earlier run left, under ids the new subtasks take (0 and 1 of
    // parallelism 2, pool indices below 3) and ids they do not; and a new subtask that has
    // already initialised its id sink-1-0 and opened a transaction under it
    String topic = "lingering-beside";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(),
            topic,
            2,
            LONG_TIMEOUT,
            "sink-0-0",
            "sink-1-0",
            "sink-2-0",
            "sink-0-3",
            "sink-01-0")) {
      child.kill();
    }
    RecoverableSink sink =
        (RecoverableSink)
            KafkaSink.<String>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topic(topic)
                .serializer(KafkaRecordSerializer.utf8())
                .deliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
                .transactionalIdPrefix("sink")
                .transactionalIdPoolSize(3)
                .build();
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "sink-1-0");
    try (KafkaProducer<String, String> subtask = new KafkaProducer<>(config)) {
      subtask.initTransactions();
      subtask.beginTransaction();
      subtask.send(new ProducerRecord<>(topic, "key", "subtask-1")).get();

      // when
      assertThat(sink.abortsLingeringBesideSubtasks()).isTrue();
      sink.abortLingeringBesideSubtasks(2);

      // then: only the ids no subtask takes were aborted; the subtask's transaction, still open,
      // commits (its producer was not fenced), and sink-0-0 is left to subtask 0's own start
      try (LingeringTransactions lingering = new LingeringTransactions(clientConfig())) {
        assertThat(lingering.list("sink-"))
            .extracting(OpenTransaction::transactionalId)
            .containsExactlyInAnyOrder("sink-0-0", "sink-1-0");
        subtask.commitTransaction();
        lingering.abortMatching(Pattern.compile("sink-.*"));
      }
    }
    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed"))
        .containsExactly("subtask-1");
  }

  @Test
  void when_lingeringTransactionIsAborted_then_readCommittedReadersMoveOn() throws Exception {
    // given: an open transaction of a killed producer, then 7 committed records behind it
    String topic = "lingering-lso";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(), topic, 10, LONG_TIMEOUT, "stuck-0")) {
      child.kill();
    }
    commitRecords(topic, "fresh-0", 7);
    assertThat(KafkaTestClients.lastStableOffsets(kafka.bootstrapServers(), topic).values())
        .containsExactly(0L);

    // when
    try (LingeringTransactions lingering = new LingeringTransactions(clientConfig())) {
      assertThat(lingering.abortMatching(Pattern.compile("stuck-0"))).hasSize(1);
    }

    // then
    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed"))
        .hasSize(7)
        .allMatch(value -> value.startsWith("fresh-0-"));
  }

  @Test
  void when_brokerIsUnreachable_then_oneLineNamesTheAddress() throws Exception {
    String address;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      address = "127.0.0.1:" + socket.getLocalPort();
    }
    Map<String, Object> config =
        Map.of(
            "bootstrap.servers",
            address,
            "default.api.timeout.ms",
            1500,
            "request.timeout.ms",
            1000);

    try (LingeringTransactions lingering = new LingeringTransactions(config)) {
      assertThatThrownBy(() -> lingering.list("any-"))
          .isInstanceOf(BrokerUnreachableException.class)
          .hasMessage(
              "no Kafka broker answered at "
                  + address
                  + " while listing transactions (is the broker running? check the bootstrap"
                  + " address)");
    }
  }

  private static void commitRecords(String topic, String transactionalId, int count) {
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      producer.initTransactions();
      producer.beginTransaction();
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(topic, "key", transactionalId + "-" + i));
      }
      producer.commitTransaction();
    }
  }

  private static Map<String, Object> clientConfig() {
    return Map.of("bootstrap.servers", kafka.bootstrapServers());
  }
}

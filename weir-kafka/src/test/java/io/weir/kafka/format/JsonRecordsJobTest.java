package io.weir.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.source.KafkaRecordDeserializer;
import io.weir.kafka.source.KafkaSource;
import io.weir.kafka.source.KafkaSourceBuilder;
import io.weir.kafka.source.StartingOffsets;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs that read JSON orders into a Java record and write them as JSON, on a real broker: the
 * committed output equals the input field by field, and a malformed record lands in the dead-letter
 * topic once while every good record reaches the output once, across a restart from a checkpoint.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class JsonRecordsJobTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  record Item(String sku, int quantity) {}

  record Order(long id, String customer, double amount, List<Item> items) {}

  private static final ObjectMapper MAPPER = Json.strictMapper();

  @TempDir Path directory;

  @Test
  void when_ordersAreReadAndWrittenAsJsonWithKeyAndHeader_then_theOutputEqualsTheInput()
      throws Exception {
    // given
    Topics topics = Topics.create("plain", 2);
    List<Order> input = orders(0, 200);
    produce(topics.input(), input.stream().map(JsonRecordsJobTest::json).toList());

    // when: the job keys each order by its customer and names it in a header
    StreamEnvironment env = environment();
    env.addSource(source(topics).bounded().build())
        .uid("orders")
        .addSink(
            sink(
                topics,
                KafkaRecordSerializer.builder(KafkaRecordSerializer.<Order>json())
                    .key(order -> order.customer().getBytes(StandardCharsets.UTF_8))
                    .header(
                        "order-id",
                        order -> Long.toString(order.id()).getBytes(StandardCharsets.UTF_8))
                    .build()))
        .uid("out");
    env.execute("json-orders");

    // then: every order once, field by field, under its key and header
    List<ConsumerRecord<byte[], byte[]>> written =
        KafkaTestClients.readRecords(kafka.bootstrapServers(), topics.output(), "read_committed");
    List<Order> output = new ArrayList<>();
    for (ConsumerRecord<byte[], byte[]> record : written) {
      Order order = MAPPER.readValue(record.value(), Order.class);
      output.add(order);
      assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(order.customer());
      assertThat(headers(record)).containsExactly(Map.entry("order-id", Long.toString(order.id())));
    }
    assertThat(output).containsExactlyInAnyOrderElementsOf(input);
  }

  @Test
  void when_aRecordIsMalformedWithoutDeadLetterTopic_then_theJobFailsNamingItsPosition() {
    // given: one partition, so that the malformed record's offset is known
    Topics topics = Topics.create("no-dead-letters", 1);
    List<String> values =
        new ArrayList<>(orders(0, 5).stream().map(JsonRecordsJobTest::json).toList());
    values.add("{\"id\": 5, oops");
    produce(topics.input(), values);

    // when
    StreamEnvironment env = environment();
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ZERO));
    env.addSource(source(topics).bounded().build())
        .addSink(sink(topics, KafkaRecordSerializer.json()));
    Throwable failure = catchThrowable(() -> env.execute("json-malformed"));

    // then: no restarts would help, and the line says where and why
    assertThat(failure)
        .hasMessageContaining(
            "Cannot deserialize the record at offset 5 of topic '"
                + topics.input()
                + "', partition 0: not JSON: Unexpected character");
    // (a checkpoint may have committed the orders before it, once each)
    assertThat(committedOrders(topics.output())).doesNotHaveDuplicates().isSubsetOf(orders(0, 5));
  }

  @Test
  void when_malformedRecordsAreAmongGoodOnes_then_eachIsDeadLetteredOnceAcrossARestart()
      throws Exception {
    // given: records that are not JSON, or JSON that is not an order, among good orders
    Topics topics = Topics.create("dead-letters", 2);
    String deadLetterTopic = topics.output() + "-dead-letters";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), deadLetterTopic, 1);
    List<String> firstValues =
        new ArrayList<>(orders(0, 50).stream().map(JsonRecordsJobTest::json).toList());
    firstValues.add(20, "{not json");
    firstValues.add(35, "{\"id\":\"forty\",\"customer\":\"bea\"}");
    produce(topics.input(), firstValues);
    StreamEnvironment env = environment();
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ZERO));
    env.addSource(source(topics).deadLetterTopic(deadLetterTopic, 3).build())
        .uid("orders")
        .map(new FailFirstAttemptAt(RESTART_TRIGGER))
        .uid("fail-once")
        .addSink(sink(topics, KafkaRecordSerializer.json()))
        .uid("out");
    JobClient job = env.executeAsync("json-dead-letters");
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .until(
            () ->
                deadLetters(deadLetterTopic).size() == 2
                    && committedOrders(topics.output()).size() == 50);

    // when: a later order fails the job once, which restarts from its latest checkpoint
    List<Order> second = new ArrayList<>(orders(50, 100));
    second.add(0, order(RESTART_TRIGGER));
    produce(topics.input(), second.stream().map(JsonRecordsJobTest::json).toList());
    List<Order> expected = new ArrayList<>(orders(0, 100));
    expected.add(order(RESTART_TRIGGER));
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> committedOrders(topics.output()).size() >= expected.size());
    job.stopWithSavepoint(directory.resolve("savepoint")).get(60, TimeUnit.SECONDS);
    JobResult result = job.awaitResult();

    // then: every good order once, each malformed record once with its origin and cause
    assertThat(result.restarts()).isEqualTo(1);
    assertThat(committedOrders(topics.output())).containsExactlyInAnyOrderElementsOf(expected);
    List<ConsumerRecord<byte[], byte[]>> deadLetters = deadLetters(deadLetterTopic);
    assertThat(deadLetters)
        .extracting(record -> new String(record.value(), StandardCharsets.UTF_8))
        .containsExactlyInAnyOrder("{not json", "{\"id\":\"forty\",\"customer\":\"bea\"}");
    Map<String, Map<String, String>> headersByValue =
        deadLetters.stream()
            .collect(
                Collectors.toMap(
                    record -> new String(record.value(), StandardCharsets.UTF_8),
                    JsonRecordsJobTest::headers));
    assertThat(headersByValue.get("{not json"))
        .containsEntry("weir.topic", topics.input())
        .containsKey("weir.offset");
    assertThat(headersByValue.get("{not json").get("weir.cause")).startsWith("not JSON: ");
    assertThat(headersByValue.get("{\"id\":\"forty\",\"customer\":\"bea\"}").get("weir.cause"))
        .startsWith("JSON does not fit Order at 'id': ");
  }

  private static final long RESTART_TRIGGER = 1_000;

  /** Fails the job's first attempt at the order with the given id, to restart it once. */
  static final class FailFirstAttemptAt extends RichMapFunction<Order, Order> {
    private static final long serialVersionUID = 1L;
    private final long id;

    FailFirstAttemptAt(long id) {
      this.id = id;
    }

    @Override
    public Order map(Order order) {
      if (order.id() == id && getRuntimeContext().attempt() == 0) {
        throw new IllegalStateException("order " + id + " fails the first attempt");
      }
      return order;
    }
  }

  /** One test's topics, named apart from the other tests' on the same broker. */
  record Topics(String input, String output) {
    static Topics create(String name, int partitions) {
      Topics topics = new Topics(name + "-orders", name + "-out");
      KafkaTestClients.createTopic(kafka.bootstrapServers(), topics.input(), partitions);
      KafkaTestClients.createTopic(kafka.bootstrapServers(), topics.output(), partitions);
      return topics;
    }
  }

  private StreamEnvironment environment() {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setCheckpointDirectory(directory.resolve("checkpoints"));
    return env;
  }

  private static KafkaSourceBuilder<Order> source(Topics topics) {
    return KafkaSource.<Order>builder()
        .bootstrapServers(kafka.bootstrapServers())
        .topics(topics.input())
        .groupId(topics.input() + "-job")
        .startingOffsets(StartingOffsets.EARLIEST)
        .deserializer(KafkaRecordDeserializer.json(Order.class));
  }

  private static io.weir.api.sink.SinkFunction<Order> sink(
      Topics topics, KafkaRecordSerializer<Order> serializer) {
    return KafkaSink.<Order>builder()
        .bootstrapServers(kafka.bootstrapServers())
        .topic(topics.output())
        .serializer(serializer)
        .transactionalIdPrefix(topics.output() + "-sink")
        .build();
  }

  static List<Order> orders(long from, long to) {
    return LongStream.range(from, to).mapToObj(JsonRecordsJobTest::order).toList();
  }

  static Order order(long id) {
    return new Order(
        id,
        "customer-" + id % 7,
        id * 1.25,
        List.of(new Item("sku-" + id, (int) (id % 5) + 1), new Item("gift", 1)));
  }

  static String json(Order order) {
    try {
      return MAPPER.writeValueAsString(order);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void produce(String topic, List<String> values) {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      for (String value : values) {
        producer.send(new ProducerRecord<>(topic, value));
      }
      producer.flush();
    }
  }

  private static List<Order> committedOrders(String topic) {
    List<Order> orders = new ArrayList<>();
    for (String value :
        KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed")) {
      try {
        orders.add(MAPPER.readValue(value, Order.class));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return orders;
  }

  private static List<ConsumerRecord<byte[], byte[]>> deadLetters(String topic) {
    return KafkaTestClients.readRecords(kafka.bootstrapServers(), topic, "read_committed");
  }

  private static Map<String, String> headers(ConsumerRecord<byte[], byte[]> record) {
    Map<String, String> headers = new HashMap<>();
    for (Header header : record.headers()) {
      headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
    }
    return headers;
  }
}

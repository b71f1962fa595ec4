package io.weir.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.source.KafkaSource;
import io.weir.kafka.source.StartingOffsets;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that reads generic Avro records in the Confluent wire format and writes specific ones as
 * plain Avro binary, on a real broker: every order arrives once, field by field and under its key;
 * a value that is not Avro goes to the dead-letter topic once, with the reason.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class AvroRecordsJobTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  private static final int SCHEMA_ID = 7;
  private static final AvroFormat<GenericRecord> INPUT =
      AvroFormat.generic(AvroOrder.SCHEMA$).withConfluentSchemaId(SCHEMA_ID);
  private static final AvroFormat<AvroOrder> OUTPUT = AvroFormat.specific(AvroOrder.class);

  @TempDir Path directory;

  @Test
  void when_avroOrdersAreReadAndWritten_then_eachArrivesOnceAndTheBadValueIsDeadLettered()
      throws Exception {
    // given: 200 orders, and a JSON value among them
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "avro-in", 2);
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "avro-out", 2);
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "avro-dead-letters", 1);
    List<AvroOrder> orders = new ArrayList<>();
    for (long id = 0; id < 200; id++) {
      orders.add(new AvroOrder(id, "customer-" + id % 7, id * 1.25));
    }
    AvroRecordSerializer<GenericRecord> writer = INPUT.serializer();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(byteProducerConfig())) {
      for (AvroOrder order : orders) {
        producer.send(new ProducerRecord<>("avro-in", writer.value(generic(order))));
        if (order.id() == 100) {
          producer.send(new ProducerRecord<>("avro-in", utf8("{\"id\":100}")));
        }
      }
    }

    // when
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setCheckpointDirectory(directory.resolve("checkpoints"));
    env.addSource(
            KafkaSource.<GenericRecord>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topics("avro-in")
                .groupId("avro-job")
                .startingOffsets(StartingOffsets.EARLIEST)
                .deserializer(INPUT.deserializer())
                .deadLetterTopic("avro-dead-letters", 3)
                .build())
        .map((MapFunction<GenericRecord, AvroOrder>) AvroRecordsJobTest::specific)
        .addSink(
            KafkaSink.<AvroOrder>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topic("avro-out")
                .transactionalIdPrefix("avro-sink")
                .serializer(
                    KafkaRecordSerializer.builder(OUTPUT.serializer())
                        .key(order -> utf8(order.customer()))
                        .build())
                .build());
    JobClient job = env.executeAsync("avro-orders");
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(500))
        .until(() -> committed("avro-out").size() >= orders.size());
    job.stopWithSavepoint(directory.resolve("savepoint")).get(60, TimeUnit.SECONDS);
    job.awaitResult();

    // then
    List<AvroOrder> output = new ArrayList<>();
    AvroRecordDeserializer<AvroOrder> reader = OUTPUT.deserializer();
    for (ConsumerRecord<byte[], byte[]> record : committed("avro-out")) {
      AvroOrder order = reader.deserialize(record);
      assertThat(new String(record.key(), StandardCharsets.UTF_8)).isEqualTo(order.customer());
      output.add(order);
    }
    assertThat(output).containsExactlyInAnyOrderElementsOf(orders);
    List<ConsumerRecord<byte[], byte[]>> deadLetters = committed("avro-dead-letters");
    assertThat(deadLetters).hasSize(1);
    assertThat(
            new String(
                deadLetters.get(0).headers().lastHeader("weir.cause").value(),
                StandardCharsets.UTF_8))
        .isEqualTo("the value starts with byte 0x7b, not the Confluent wire format's magic byte 0");
  }

  private static GenericRecord generic(AvroOrder order) {
    GenericRecord record = new GenericData.Record(AvroOrder.SCHEMA$);
    record.put("id", order.id());
    record.put("customer", order.customer());
    record.put("amount", order.amount());
    return record;
  }

  private static AvroOrder specific(GenericRecord record) {
    return new AvroOrder(
        (Long) record.get("id"), record.get("customer").toString(), (Double) record.get("amount"));
  }

  private static List<ConsumerRecord<byte[], byte[]>> committed(String topic) {
    return KafkaTestClients.readRecords(kafka.bootstrapServers(), topic, "read_committed");
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static Properties byteProducerConfig() {
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return config;
  }
}

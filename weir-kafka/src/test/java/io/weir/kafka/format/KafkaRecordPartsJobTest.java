package io.weir.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.SinkFunction;
import io.weir.kafka.sink.DeliveryGuarantee;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.source.KafkaRecord;
import io.weir.kafka.source.KafkaRecordDeserializer;
import io.weir.kafka.source.KafkaSource;
import io.weir.kafka.source.StartingOffsets;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Jobs that read and write whole Kafka records on a real broker: raw bytes as they are; keys,
 * headers, timestamps and positions as read, and as set per record by both kinds of sink.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class KafkaRecordPartsJobTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir Path directory;

  @Test
  void when_bytesAreReadAndWritten_then_everyValueArrivesAsItWas() throws Exception {
    // given: random values of every length from 0 (empty) to 300 bytes
    String input = "bytes-in";
    String output = "bytes-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), input, 2);
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 2);
    Random random = new Random(42);
    List<byte[]> values = new ArrayList<>();
    for (int length = 0; length <= 300; length++) {
      byte[] value = new byte[length];
      random.nextBytes(value);
      values.add(value);
    }
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(byteProducerConfig())) {
      for (byte[] value : values) {
        producer.send(new ProducerRecord<>(input, value));
      }
    }

    // when
    StreamEnvironment env = environment();
    env.addSource(
            KafkaSource.<byte[]>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topics(input)
                .groupId("bytes-job")
                .startingOffsets(StartingOffsets.EARLIEST)
                .deserializer(KafkaRecordDeserializer.bytes())
                .bounded()
                .build())
        .addSink(
            KafkaSink.<byte[]>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topic(output)
                .serializer(KafkaRecordSerializer.bytes())
                .transactionalIdPrefix("bytes-sink")
                .build());
    env.execute("bytes");

    // then
    List<String> committed =
        KafkaTestClients.readRecords(kafka.bootstrapServers(), output, "read_committed").stream()
            .map(ConsumerRecord::value)
            .map(HexFormat.of()::formatHex)
            .toList();
    assertThat(committed)
        .containsExactlyInAnyOrderElementsOf(
            values.stream().map(HexFormat.of()::formatHex).toList());
  }

  @Test
  void when_aJobSetsKeyPartitionTimestampAndHeaders_then_bothSinksWriteThemAsSet()
      throws Exception {
    // given: records with keys (some none), a header and a timestamp, at known positions
    String input = "parts-in";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), input, 2);
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "parts-exactly-once", 3);
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "parts-at-least-once", 3);
    Map<String, RecordMetadata> positions = new HashMap<>();
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(byteProducerConfig())) {
      Map<String, Future<RecordMetadata>> sent = new HashMap<>();
      for (int i = 0; i < RECORDS; i++) {
        ProducerRecord<byte[], byte[]> record =
            new ProducerRecord<>(
                input, i % 2, BASE_TIME + i, i % 10 == 0 ? null : utf8("k-" + i), utf8("v-" + i));
        record.headers().add("trace", utf8("t-" + i));
        sent.put("v-" + i, producer.send(record));
      }
      for (Map.Entry<String, Future<RecordMetadata>> record : sent.entrySet()) {
        positions.put(record.getKey(), record.getValue().get());
      }
    }

    // when: the job writes each record to a partition of its choice, a second later, with its
    // key, its trace header and where it was read
    StreamEnvironment env = environment();
    DataStream<KafkaRecord<String>> records =
        env.addSource(
            KafkaSource.<KafkaRecord<String>>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topics(input)
                .groupId("parts-job")
                .startingOffsets(StartingOffsets.EARLIEST)
                .deserializer(
                    KafkaRecordDeserializer.withMetadata(KafkaRecordDeserializer.utf8Values()))
                .bounded()
                .build());
    records.addSink(sink("parts-exactly-once", DeliveryGuarantee.EXACTLY_ONCE));
    records.addSink(sink("parts-at-least-once", DeliveryGuarantee.AT_LEAST_ONCE));
    env.execute("parts");

    // then
    for (String topic : List.of("parts-exactly-once", "parts-at-least-once")) {
      List<ConsumerRecord<byte[], byte[]>> written =
          KafkaTestClients.readRecords(kafka.bootstrapServers(), topic, "read_committed");
      assertThat(written).as(topic).hasSize(RECORDS);
      assertThat(written.stream().map(record -> text(record.value())).distinct())
          .as(topic)
          .hasSize(RECORDS);
      for (ConsumerRecord<byte[], byte[]> record : written) {
        String value = text(record.value());
        int i = Integer.parseInt(value.substring(2));
        RecordMetadata from = positions.get(value);
        assertThat(text(record.key())).as(value).isEqualTo(i % 10 == 0 ? null : "k-" + i);
        assertThat(record.partition()).as(value).isEqualTo(i % 3);
        assertThat(record.timestamp()).as(value).isEqualTo(BASE_TIME + i + 1_000);
        assertThat(headers(record))
            .as(value)
            .containsExactly(
                entry("trace", "t-" + i),
                entry("origin", input + "-" + from.partition() + "@" + from.offset()));
      }
    }
  }

  private static final int RECORDS = 200;
  private static final long BASE_TIME = 1_700_000_000_000L;

  private static SinkFunction<KafkaRecord<String>> sink(String topic, DeliveryGuarantee guarantee) {
    return KafkaSink.<KafkaRecord<String>>builder()
        .bootstrapServers(kafka.bootstrapServers())
        .topic(topic)
        .deliveryGuarantee(guarantee)
        .transactionalIdPrefix(topic)
        .serializer(
            KafkaRecordSerializer.builder(
                    (KafkaRecordSerializer<KafkaRecord<String>>) record -> utf8(record.value()))
                .key(KafkaRecord::key)
                .header("trace", record -> record.header("trace"))
                .header(
                    "origin",
                    record ->
                        utf8(record.topic() + "-" + record.partition() + "@" + record.offset()))
                .partition(record -> Integer.parseInt(record.value().substring(2)) % 3)
                .timestamp(record -> record.timestamp() + 1_000)
                .build())
        .build();
  }

  private static List<Map.Entry<String, String>> headers(ConsumerRecord<byte[], byte[]> record) {
    List<Map.Entry<String, String>> headers = new ArrayList<>();
    for (Header header : record.headers()) {
      headers.add(entry(header.key(), text(header.value())));
    }
    return headers;
  }

  private static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  private static String text(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  private StreamEnvironment environment() {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(200));
    env.setCheckpointDirectory(directory.resolve("checkpoints"));
    return env;
  }

  private static Properties byteProducerConfig() {
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    return config;
  }
}

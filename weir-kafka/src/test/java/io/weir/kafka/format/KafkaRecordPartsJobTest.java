package io.weir.kafka.format;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.source.KafkaRecordDeserializer;
import io.weir.kafka.source.KafkaSource;
import io.weir.kafka.source.StartingOffsets;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Jobs that read and write whole Kafka records on a real broker: raw bytes as they are. */
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

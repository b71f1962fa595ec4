package io.weir.lab.bench;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Makes a fresh broker create, before any run is timed, the internal topics it creates on first
 * use: the transaction state topic (50 partitions, at the first transactional producer's {@code
 * initTransactions}) and the consumer offsets topic (at the first offset commit). Otherwise
 * whichever run comes first pays for them — on a 2-core machine about a second — although a user's
 * broker has both already.
 */
final class BrokerWarmUp {
  private static final String NAME = "bench-warm-up";

  private BrokerWarmUp() {}

  /** Runs one empty transaction and commits one offset of {@code topic}'s partition 0. */
  static void warm(String bootstrap, String topic) throws Exception {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                NAME,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class,
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG,
                ByteArraySerializer.class))) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.commitTransaction();
    }
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin
          .alterConsumerGroupOffsets(
              NAME, Map.of(new TopicPartition(topic, 0), new OffsetAndMetadata(0)))
          .all()
          .get();
    }
  }
}

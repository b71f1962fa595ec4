package io.weir.kafka.sink;

import io.weir.kafka.ClientDefaults;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** What a Kafka sink writes and how; made by {@link KafkaSink#builder()}. */
record KafkaSinkConfig<T>(
    String bootstrapServers,
    String topic,
    KafkaRecordSerializer<T> serializer,
    DeliveryGuarantee guarantee,
    String transactionalIdPrefix,
    Duration transactionTimeout,
    int transactionalIdPoolSize,
    Duration checkpointInterval,
    Map<String, String> producerProperties,
    Duration startTimeout,
    Duration readableAtEndTimeout)
    implements Serializable {

  /** The Kafka record both kinds of sink send for {@code value}, as the serializer makes it. */
  ProducerRecord<byte[], byte[]> producerRecordOf(T value) {
    return new ProducerRecord<>(
        topic,
        serializer.partition(value),
        serializer.timestamp(value),
        serializer.key(value),
        serializer.value(value),
        serializer.headers(value));
  }

  /** The configuration of every producer of the sink; transactional ones add their id. */
  Map<String, Object> producerConfig() {
    Map<String, Object> config = new HashMap<>(producerProperties);
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    // A transaction's records stay invisible until its commit, and the pre-commit flushes what
    // lingers, so fuller batches cost a reader nothing. Each subtask's producer writes to every
    // partition of the topic, so at 5 ms and 16 KiB it sent many small requests, and its I/O
    // thread took half as much CPU again as with these. Other sinks' readers see each record sent.
    boolean transactional = guarantee == DeliveryGuarantee.EXACTLY_ONCE;
    config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, transactional ? "20" : "5");
    if (transactional) {
      config.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
    }
    config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
    // A producer's initTransactions finds its coordinator, then finds the coordinator's connection
    // not yet ready and sleeps one retry backoff before asking for its producer id: with the
    // clients' 100 ms, a tenth of a second of every start and failover. Retries still back off
    // exponentially, up to the clients' 1 s.
    config.putIfAbsent(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "10");
    if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
      config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeout.toMillis());
    } else if (guarantee == DeliveryGuarantee.AT_LEAST_ONCE) {
      config.put(ProducerConfig.ACKS_CONFIG, "all");
    }
    return ClientDefaults.applyTo(config);
  }
}

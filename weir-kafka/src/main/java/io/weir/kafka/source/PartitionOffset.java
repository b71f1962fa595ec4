package io.weir.kafka.source;

import java.io.Serializable;

/** The next offset to read of one partition: what a Kafka source keeps in its checkpoints. */
public record PartitionOffset(String topic, int partition, long offset) implements Serializable {}

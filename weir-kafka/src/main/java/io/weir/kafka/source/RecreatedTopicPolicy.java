package io.weir.kafka.source;

/**
 * What a restored Kafka source does with a topic whose id differs from the one its checkpoint
 * recorded: the topic was deleted and created again under the same name while the job was down, and
 * the checkpoint's offsets belong to the old topic's log.
 */
public enum RecreatedTopicPolicy {
  /** Fail the job, naming the topic and both ids (default). */
  FAIL,
  /** Read the new topic from its earliest offset, forgetting the old topic's offsets. */
  EARLIEST
}

package io.weir.kafka.source;

import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.kafka.sink.KafkaRecordSerializer;
import io.weir.kafka.sink.KafkaSink;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The dead-letter topic of one source subtask. A record whose processing fails in the source's task
 * is noted ({@link RecordFailureNotes}) and fails the job as before, so the job restarts from its
 * checkpoint and nothing the failed attempt wrote is committed; once the same record failed the job
 * the configured number of times, the next attempt does not process it but writes it to the
 * dead-letter topic and goes on. A record the source's deserializer cannot read goes there at once:
 * it would fail every attempt the same way.
 *
 * <p>Exactly once with the rest: the dead letter is written into a transaction of an exactly-once
 * Kafka sink that this source drives as its own operator would — pre-committed at the barrier that
 * also snapshots the source's offsets past the record, committed when that checkpoint completes,
 * settled by the job's recovery step on restore. A crash before that checkpoint completes restores
 * offsets before the record, and the note sends it to the dead-letter topic again while the first
 * transaction is aborted.
 *
 * <p>Called on the source task's thread, with the checkpoint lock held where the source holds it.
 */
final class DeadLetters implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(DeadLetters.class);
  private static final Duration NOTE_TIMEOUT = Duration.ofSeconds(10);

  private final DeadLetterConfig config;
  private final TwoPhaseCommitSinkFunction<DeadLetter, ?, ?> sink;
  private final RecordFailureNotes notes;
  private final String operator;
  private final Failpoints failpoints;
  private final Map<TopicPartition, RecordFailureNotes.Note> notesByPartition = new HashMap<>();
  // Written by the task's thread; read by progress lines, heartbeats and metrics.
  private volatile long sent;

  private DeadLetters(
      KafkaSourceConfig<?> source,
      TwoPhaseCommitSinkFunction<DeadLetter, ?, ?> sink,
      RuntimeContext runtime) {
    this.config = source.deadLetters();
    this.sink = sink;
    this.operator = runtime.operatorName();
    this.failpoints = Failpoints.of(runtime);
    this.notes =
        new RecordFailureNotes(
            source.bootstrapServers(),
            config.notesGroup(),
            source.consumerProperties(),
            NOTE_TIMEOUT);
  }

  /** The exactly-once sink that writes the dead letters of {@code source}. */
  static TwoPhaseCommitSinkFunction<DeadLetter, ?, ?> sinkOf(KafkaSourceConfig<?> source) {
    DeadLetterConfig config = source.deadLetters();
    return KafkaSink.<DeadLetter>builder()
        .bootstrapServers(source.bootstrapServers())
        .topic(config.topic())
        .transactionalIdPrefix(config.transactionalIdPrefix())
        .transactionTimeout(config.transactionTimeout())
        .startTimeout(source.startTimeout())
        .serializer(new Serializer())
        .buildTransactional();
  }

  /**
   * Starts the dead-letter sink (its first transaction) in the source's operator state and reads
   * the failure notes of the source's partitions; called from the source's {@code open}, once its
   * partitions and their positions are known.
   */
  static DeadLetters open(
      KafkaSourceConfig<?> source,
      FunctionInitializationContext context,
      RuntimeContext runtime,
      Set<TopicPartition> partitions)
      throws Exception {
    TwoPhaseCommitSinkFunction<DeadLetter, ?, ?> sink = sinkOf(source);
    sink.setRuntimeContext(new DeadLetterRuntimeContext(runtime));
    DeadLetters deadLetters = new DeadLetters(source, sink, runtime);
    try {
      sink.initializeState(context);
      sink.open();
      deadLetters.notesByPartition.putAll(deadLetters.notes.read(partitions));
    } catch (Exception e) {
      deadLetters.close();
      throw e;
    }
    return deadLetters;
  }

  /**
   * The job-level recovery step for the dead-letter sink: settles the transactions that the
   * source's state of all former subtasks records (see {@link io.weir.api.sink.RecoverableSink}).
   */
  static List<TransactionOutcome> recoverTransactions(
      KafkaSourceConfig<?> source, List<byte[]> restoredStates) throws Exception {
    return sinkOf(source).recoverTransactions(restoredStates);
  }

  /** Whether the record at {@code offset} of {@code partition} failed the job often enough. */
  boolean isDue(TopicPartition partition, long offset) {
    RecordFailureNotes.Note note = notesByPartition.get(partition);
    return note != null && note.offset() == offset && note.failures() >= config.failures();
  }

  /** Writes the due record into the dead-letter sink's open transaction. */
  void send(ConsumerRecord<byte[], byte[]> record) throws Exception {
    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    RecordFailureNotes.Note note = notesByPartition.get(partition);
    write(record, note.cause(), "it failed the job " + note.failures() + " times");
  }

  /**
   * Writes a record the source's deserializer cannot read into the dead-letter sink's open
   * transaction at once: reading it fails the same way in every attempt, so the job need not fail
   * for it to be counted.
   */
  void sendUnreadable(ConsumerRecord<byte[], byte[]> record, String cause) throws Exception {
    write(record, cause, "it cannot be deserialized");
  }

  private void write(ConsumerRecord<byte[], byte[]> record, String cause, String why)
      throws Exception {
    sink.invoke(
        new DeadLetter(
            record.key(),
            record.value(),
            record.topic(),
            record.partition(),
            record.offset(),
            operator,
            cause),
        new RecordContext(record.timestamp()));
    sent++;
    LOG.warn(
        "Sent the record of {}-{} at offset {} to dead-letter topic '{}': {} ({})",
        record.topic(),
        record.partition(),
        record.offset(),
        config.topic(),
        why,
        cause);
    failpoints.hit(FailpointNames.SOURCE_DEAD_LETTER_AFTER);
  }

  /**
   * Notes that processing the record failed once more, and returns the failure the task fails with:
   * named so that the job's restart policy does not count it as a poison record, since this source
   * counts it itself and sends it to the dead-letter topic instead of failing the job for good.
   */
  RuntimeException failed(ConsumerRecord<byte[], byte[]> record, RuntimeException failure) {
    TopicPartition partition = new TopicPartition(record.topic(), record.partition());
    String cause = oneLine(failure);
    String counted;
    try {
      RecordFailureNotes.Note note =
          notes.recordFailure(partition, record.offset(), notesByPartition.get(partition), cause);
      notesByPartition.put(partition, note);
      counted = "failure " + note.failures() + " of " + config.failures();
    } catch (RuntimeException e) {
      failure.addSuppressed(e);
      counted = "failure not counted, Kafka unreachable: " + e.getMessage();
    }
    return new IllegalStateException(
        "Processing offset "
            + record.offset()
            + " of "
            + partition
            + " failed ("
            + counted
            + " before it goes to dead-letter topic '"
            + config.topic()
            + "'): "
            + cause,
        failure);
  }

  private static String oneLine(Throwable failure) {
    Throwable root = failure;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String text = root.getClass().getSimpleName() + ": " + root.getMessage();
    return text.replaceAll("\\s+", " ").strip();
  }

  /** Records sent to the dead-letter topic by this subtask since it started. */
  long sent() {
    return sent;
  }

  void snapshotState(FunctionSnapshotContext context) throws Exception {
    sink.snapshotState(context);
  }

  void notifyCheckpointComplete(long checkpointId) throws Exception {
    sink.notifyCheckpointComplete(checkpointId);
  }

  void notifyCheckpointAborted(long checkpointId) throws Exception {
    sink.notifyCheckpointAborted(checkpointId);
  }

  @Override
  public void close() throws Exception {
    try {
      sink.close();
    } finally {
      notes.close();
    }
  }

  private record RecordContext(long timestamp) implements SinkFunction.Context {
    @Override
    public long currentWatermark() {
      return Long.MIN_VALUE;
    }

    @Override
    public long currentProcessingTime() {
      return System.currentTimeMillis();
    }
  }

  /** Key and value as read; origin and cause in headers. */
  private static final class Serializer implements KafkaRecordSerializer<DeadLetter> {
    private static final long serialVersionUID = 1L;

    @Override
    public byte[] value(DeadLetter record) {
      return record.value();
    }

    @Override
    public byte[] key(DeadLetter record) {
      return record.key();
    }

    @Override
    public Iterable<Header> headers(DeadLetter record) {
      return record.headers();
    }
  }
}

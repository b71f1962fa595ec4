package io.weir.lab.operations;

import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedRecordsRead;
import io.weir.lab.process.RunningJob;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A poison record: one record with an empty value, which both jobs' functions reject, amid the
 * input in partition 0. Without a dead-letter topic the job must fail after a few attempts with one
 * line naming the topic and the record's offset, and commit nothing of partition 0 at or past it.
 * With {@code --dead-letter-topic} the job must go on: every other record once in the output, the
 * poison record once in the dead-letter topic, and the job counting it ({@code dead-letters=1} in
 * its progress line).
 */
final class PoisonRecordOperation implements Operation {
  private static final long BEFORE = 500;
  private static final long AFTER = 500;
  private static final int POISONED_PARTITION = 0;

  private final boolean deadLetters;

  PoisonRecordOperation(boolean deadLetters) {
    this.deadLetters = deadLetters;
  }

  @Override
  public String key() {
    return deadLetters ? "poison-dead-letter" : "poison-no-dead-letter";
  }

  @Override
  public Expectation expectation() {
    return deadLetters ? Expectation.EXACTLY_ONCE : Expectation.LOUD_FAILURE;
  }

  @Override
  public OperationOutcome run(OperationCell cell) throws Exception {
    String deadLetterTopic = cell.topics().output() + "-dead-letters";
    if (deadLetters) {
      cell.createTopics(OperationCell.PARTITIONS, deadLetterTopic);
    } else {
      cell.createTopics(OperationCell.PARTITIONS);
    }
    cell.load(0, BEFORE);
    long poisonOffset = sendPoison(cell);
    cell.load(BEFORE, BEFORE + AFTER);
    cell.progress(
        "poison record at offset "
            + poisonOffset
            + " of "
            + cell.topics().input()
            + "-"
            + POISONED_PARTITION);
    List<String> options =
        deadLetters ? List.of(OperationOptions.DEAD_LETTER_TOPIC, deadLetterTopic) : List.of();
    try (RunningJob job = cell.start(cell.runArguments(0, List.of("--fresh"), options), null)) {
      if (!deadLetters) {
        // Records before the poison record (and of other partitions) may be committed, once each;
        // pastThePoison checks that none of its partition at or past it was.
        OperationOutcome failure =
            cell.awaitLoudFailure(job, poisonLine(cell, poisonOffset), cell.input());
        return failure == null ? stillRunning(cell) : pastThePoison(cell, failure, poisonOffset);
      }
      cell.awaitSettled(job);
      DeadLetterCount.awaitShown(job, 1, cell.settings().timeout());
    }
    return OperationOutcome.counted(withDeadLetters(cell, deadLetterTopic));
  }

  private static long sendPoison(OperationCell cell) throws Exception {
    Properties properties = new Properties();
    properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cell.bootstrap());
    properties.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    properties.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    properties.put(ProducerConfig.ACKS_CONFIG, "all");
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(properties)) {
      RecordMetadata sent =
          producer
              .send(
                  new ProducerRecord<>(
                      cell.topics().input(),
                      POISONED_PARTITION,
                      "poison".getBytes(StandardCharsets.UTF_8),
                      new byte[0]))
              .get(30, TimeUnit.SECONDS);
      return sent.offset();
    }
  }

  /**
   * The loud failure also requires that nothing of the poisoned partition at or past the poison
   * record was committed; other partitions may have gone on.
   */
  private static OperationOutcome pastThePoison(
      OperationCell cell, OperationOutcome failure, long poisonOffset) {
    if (failure.kind() != OperationOutcome.Kind.LOUD_FAILURE) {
      return failure;
    }
    Map<Long, Long> poisonedPartitionOffsets = new HashMap<>();
    new OutputVerifier(cell.bootstrap(), cell.topics().input())
        .forEachRecord(
            false,
            record -> {
              Long id = SeedRecordsRead.idOf(new String(record.value(), StandardCharsets.UTF_8));
              if (id != null && record.partition() == POISONED_PARTITION) {
                poisonedPartitionOffsets.put(id, record.offset());
              }
            });
    long past =
        cell.committedOutput().counts().keySet().stream()
            .filter(id -> poisonedPartitionOffsets.getOrDefault(id, -1L) > poisonOffset)
            .count();
    if (past > 0) {
      return OperationOutcome.failed(
          past + " records past the poison record were committed: " + failure.failure(),
          new OutputVerifier.Verdict(failure.in(), failure.out(), 0, past));
    }
    return failure;
  }

  /** The job kept restarting (or skipped the record silently): counted, as a failed cell. */
  private static OperationOutcome stillRunning(OperationCell cell) {
    return OperationOutcome.failed(
        "the job did not fail within "
            + cell.settings().timeout().toSeconds()
            + " s (restarting for ever, or the record skipped silently)",
        cell.verdict());
  }

  /** The output's verdict, with the poison record expected once in the dead-letter topic. */
  private static OutputVerifier.Verdict withDeadLetters(OperationCell cell, String topic) {
    OutputVerifier.Verdict output = cell.verdict();
    long[] deadLetters = {0};
    new OutputVerifier(cell.bootstrap(), topic).forEachRecord(true, record -> deadLetters[0]++);
    cell.progress("dead letters: " + deadLetters[0] + " (expected 1)");
    return new OutputVerifier.Verdict(
        output.in() + 1,
        output.out() + deadLetters[0],
        output.lost() + (deadLetters[0] == 0 ? 1 : 0),
        output.duplicated() + Math.max(0, deadLetters[0] - 1));
  }

  /** The documented line: it names the input topic and the poison record's offset. */
  private static OperationCell.LoudFailure poisonLine(OperationCell cell, long offset) {
    String topic = cell.topics().input();
    Pattern offsetPattern = Pattern.compile("\\boffset\\D{0,3}" + offset + "\\b");
    return new OperationCell.LoudFailure() {
      @Override
      public boolean accepts(String line) {
        return line.contains(topic) && offsetPattern.matcher(line).find();
      }

      @Override
      public String description() {
        return "a line naming topic " + topic + " and offset " + offset;
      }
    };
  }
}

package io.weir.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.EnumeratedSource;
import io.weir.api.source.ReaderSource;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceReaderContext;
import io.weir.api.source.SplitEnumerator;
import io.weir.api.source.SplitEnumeratorContext;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Event-time windows over an unbounded Kafka source on a real broker, each window's sum counted
 * against a plain loop. A subtask waiting for its first assignment holds event time back, or its
 * records, once they come, are late; a subtask the enumerator gives no partition (more subtasks
 * than partitions) must still become idle, or no window would fire. The strategy has no idleness
 * timeout, so only the enumerator's empty assignment lets that subtask be idle.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class KafkaSourceWindowsTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  private static final int PARTITIONS = 2;
  private static final int KEYS = 3;
  private static final long RECORDS = 1_000;
  private static final long MILLIS_PER_ID = 10;
  private static final long WINDOW_MILLIS = 1_000;
  // The job's functions are copies: the test reads the results through a static.
  static final ConcurrentLinkedQueue<String> RESULTS = new ConcurrentLinkedQueue<>();

  @Test
  void when_aSubtaskIsAssignedNoPartition_then_windowsFireWithEveryRecord() throws Exception {
    // given: more source subtasks than partitions
    String topic = "windows-more-subtasks";
    List<Long> ids = produceIdsAndCloseTheirWindows(topic);

    // when
    List<String> results = runUntilEveryWindowFired(source(topic), 3, ids);

    // then
    assertThat(results).containsExactlyInAnyOrderElementsOf(expectedSums(ids));
  }

  @Test
  void when_oneSubtasksPartitionsAreAssignedLate_then_noneOfItsRecordsIsLate() throws Exception {
    // given: two subtasks, one partition each; the enumerator answers subtask 1 only after the
    // other subtask has read all of its partition
    String topic = "windows-late-assignment";
    List<Long> ids = produceIdsAndCloseTheirWindows(topic);

    // when
    List<String> results =
        runUntilEveryWindowFired(new LateAssignmentSource(source(topic)), PARTITIONS, ids);

    // then: no window fired before subtask 1's records reached it
    assertThat(results).containsExactlyInAnyOrderElementsOf(expectedSums(ids));
  }

  /**
   * Ids 0..999 on two partitions at 10 ms of event time each, then on each partition a record far
   * ahead that closes every window of the ids; returns the ids.
   */
  private static List<Long> produceIdsAndCloseTheirWindows(String topic) {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, PARTITIONS);
    List<Long> ids = new ArrayList<>();
    for (long id = 0; id < RECORDS; id++) {
      ids.add(id);
    }
    produce(topic, ids);
    produce(topic, List.of(RECORDS * 3, RECORDS * 3 + 1));
    return ids;
  }

  /** Sums each key's ids per tumbling window; cancels the job once every window of ids fired. */
  private static List<String> runUntilEveryWindowFired(
      ReaderSource<String> source, int parallelism, List<Long> ids) throws Exception {
    RESULTS.clear();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.addSource(source)
        .uid("in")
        .map(Long::parseLong)
        .keyBy(id -> id % KEYS)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(WINDOW_MILLIS)))
        .reduce(Long::sum, new SumLine())
        .addSink(new Collect());
    JobClient job = env.executeAsync("windows-p" + parallelism);
    int windows = expectedSums(ids).size();
    try {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> RESULTS.size() >= windows);
    } finally {
      job.cancel();
    }
    return new ArrayList<>(RESULTS);
  }

  private static List<String> expectedSums(List<Long> ids) {
    Map<String, Long> sums = new HashMap<>();
    for (long id : ids) {
      long start = id * MILLIS_PER_ID - (id * MILLIS_PER_ID) % WINDOW_MILLIS;
      sums.merge(id % KEYS + "@" + start, id, Long::sum);
    }
    List<String> expected = new ArrayList<>();
    sums.forEach((window, sum) -> expected.add(window + ":" + sum));
    return expected;
  }

  private static KafkaSource<String> source(String topic) {
    return KafkaSource.<String>builder()
        .bootstrapServers(kafka.bootstrapServers())
        .topics(topic)
        .groupId(topic + "-job")
        .startingOffsets(StartingOffsets.EARLIEST)
        .deserializer(KafkaRecordDeserializer.utf8Values())
        .watermarks(
            WatermarkStrategy.<String>forMonotonousTimestamps()
                .withTimestampAssigner(
                    (value, kafkaTimestamp) -> Long.parseLong(value) * MILLIS_PER_ID))
        .build();
  }

  private static void produce(String topic, List<Long> ids) {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      for (long id : ids) {
        producer.send(
            new ProducerRecord<>(topic, (int) (id % PARTITIONS), null, Long.toString(id)));
      }
      producer.flush();
    }
  }

  /**
   * The Kafka source, but its enumerator hears of reader {@link #LATE_SUBTASK} one {@link
   * #ASSIGNMENT_DELAY} after that reader registered, as on a loaded machine where one subtask's
   * deployment lags.
   */
  static final class LateAssignmentSource extends AbstractRichFunction
      implements EnumeratedSource<String, PartitionOffset, KafkaEnumeratorState>,
          CheckpointedFunction {
    private static final long serialVersionUID = 1L;
    static final int LATE_SUBTASK = 1;
    static final Duration ASSIGNMENT_DELAY = Duration.ofSeconds(3);
    private final KafkaSource<String> source;

    LateAssignmentSource(KafkaSource<String> source) {
      this.source = source;
    }

    @Override
    public void setRuntimeContext(RuntimeContext context) {
      super.setRuntimeContext(context);
      source.setRuntimeContext(context);
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
      source.initializeState(context);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
      source.snapshotState(context);
    }

    @Override
    public SourceReader<String, PartitionOffset> createReader(SourceReaderContext context)
        throws Exception {
      return source.createReader(context);
    }

    @Override
    public Optional<SplitEnumerator<PartitionOffset, KafkaEnumeratorState>> createEnumerator(
        SplitEnumeratorContext<PartitionOffset> context, KafkaEnumeratorState restored) {
      SplitEnumerator<PartitionOffset, KafkaEnumeratorState> enumerator =
          source.createEnumerator(context, restored).orElseThrow();
      return Optional.of(new LateReader(enumerator, context));
    }

    @Override
    public void close() {
      source.close();
    }
  }

  /** Registers reader {@code LATE_SUBTASK} with the enumerator on the first tick after a delay. */
  static final class LateReader implements SplitEnumerator<PartitionOffset, KafkaEnumeratorState> {
    private final SplitEnumerator<PartitionOffset, KafkaEnumeratorState> enumerator;
    private final SplitEnumeratorContext<PartitionOffset> context;
    private final Set<Integer> registered = new HashSet<>();

    LateReader(
        SplitEnumerator<PartitionOffset, KafkaEnumeratorState> enumerator,
        SplitEnumeratorContext<PartitionOffset> context) {
      this.enumerator = enumerator;
      this.context = context;
    }

    @Override
    public void start() throws Exception {
      enumerator.start();
    }

    @Override
    public void addReader(int subtaskIndex) throws Exception {
      if (subtaskIndex != LateAssignmentSource.LATE_SUBTASK) {
        enumerator.addReader(subtaskIndex);
        return;
      }
      context.callPeriodically(
          () -> subtaskIndex,
          (late, failure) -> {
            if (registered.add(late)) {
              try {
                enumerator.addReader(late);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            }
          },
          LateAssignmentSource.ASSIGNMENT_DELAY);
    }

    @Override
    public KafkaEnumeratorState snapshotState(long checkpointId) throws Exception {
      return enumerator.snapshotState(checkpointId);
    }

    @Override
    public void close() throws Exception {
      enumerator.close();
    }
  }

  /** "key@start:sum" of a tumbling window, from its one reduced value. */
  static final class SumLine extends ProcessWindowFunction<Long, String, Long, TimeWindow> {
    private static final long serialVersionUID = 1L;

    @Override
    public void process(
        Long key, Context<TimeWindow> context, Iterable<Long> sums, Collector<String> out) {
      out.collect(key + "@" + context.window().start() + ":" + sums.iterator().next());
    }
  }

  static final class Collect implements SinkFunction<String> {
    private static final long serialVersionUID = 1L;

    @Override
    public void invoke(String value, Context context) {
      RESULTS.add(value);
    }
  }
}

package io.weir.nexmark.flink;

import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.model.Event;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.base.DeliveryGuarantee;
import org.apache.flink.connector.kafka.sink.KafkaSink;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * One Nexmark query on Flink in a local mini cluster, as Weir's {@code NexmarkJob} runs it: the
 * events topic read from its start up to the end offsets it had when the job started (or, with
 * {@code --unbounded}, as it grows until the process is killed), results exactly once to a topic
 * through Flink's transactional Kafka sink, checkpoints at the same interval into a directory.
 * Exits once the bounded input is consumed and its last transaction committed; with exit code
 * {@value #NOT_WRITTEN_FOR_FLINK} when the query has no Flink version.
 */
@Command(name = "flink-nexmark-job", description = "Run one Nexmark query on Flink.")
public final class FlinkNexmarkJob implements Callable<Integer> {
  /** The exit code that tells the bench the query is not written for Flink. */
  public static final int NOT_WRITTEN_FOR_FLINK = 3;

  // Flink's sink asks for one hour by default, more than a broker's default maximum allows.
  private static final String TRANSACTION_TIMEOUT_MILLIS = "600000";

  @Option(names = "--query", required = true, description = "The query, e.g. q7.")
  String queryName;

  @Option(names = "--bootstrap-servers", required = true)
  String bootstrapServers;

  @Option(names = "--events-topic", required = true)
  String eventsTopic;

  @Option(names = "--results-topic", required = true)
  String resultsTopic;

  @Option(names = "--group", required = true, description = "Group and transactional id prefix.")
  String group;

  @Option(names = "--parallelism", description = "Default: 2")
  int parallelism = 2;

  @Option(names = "--state-backend", description = "heap or rocksdb. Default: heap")
  String stateBackend = "heap";

  @Option(names = "--checkpoint-dir", required = true)
  Path checkpointDirectory;

  @Option(names = "--checkpoint-interval-ms", description = "Default: 1000")
  long checkpointIntervalMillis = 1000;

  @Option(names = "--rate", description = "The generator's events per second. Default: 10000")
  long eventsPerSecond = GeneratorConfig.DEFAULT_EVENTS_PER_SECOND;

  @Option(
      names = "--unbounded",
      description = "Read the events topic as it grows and run until stopped (killed).")
  boolean unbounded;

  public static void main(String[] args) {
    int exitCode = new CommandLine(new FlinkNexmarkJob()).execute(args);
    // The mini cluster's pools may keep the JVM alive after the job is done.
    System.exit(exitCode);
  }

  @Override
  public Integer call() throws Exception {
    FlinkQuery query = FlinkQueries.named(queryName).orElse(null);
    if (query == null) {
      System.out.println("--query " + queryName + " is not written for Flink");
      return NOT_WRITTEN_FOR_FLINK;
    }
    StreamExecutionEnvironment env =
        StreamExecutionEnvironment.createLocalEnvironment(parallelism, configuration());
    env.enableCheckpointing(checkpointIntervalMillis, CheckpointingMode.EXACTLY_ONCE);
    write(query.apply(events(env)));
    env.execute("nexmark-" + queryName);
    return 0;
  }

  private Configuration configuration() {
    Configuration configuration = new Configuration();
    configuration.set(StateBackendOptions.STATE_BACKEND, backendName());
    configuration.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    // A failed run is reported, not retried: a restart would hide in the timing.
    configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
    configuration.set(
        CheckpointingOptions.CHECKPOINTS_DIRECTORY,
        checkpointDirectory.toAbsolutePath().toUri().toString());
    return configuration;
  }

  private String backendName() {
    return switch (stateBackend) {
      case "heap" -> "hashmap";
      case "rocksdb" -> "rocksdb";
      default ->
          throw new CommandLine.ParameterException(
              new CommandLine(this),
              "--state-backend must be heap or rocksdb, got " + stateBackend);
    };
  }

  private DataStream<Event> events(StreamExecutionEnvironment env) {
    Duration maxOutOfOrderness =
        GeneratorConfig.defaults().withEventsPerSecond(eventsPerSecond).maxOutOfOrderness();
    // With a group id and checkpointing, the source commits the group's offsets when a checkpoint
    // completes, in the notification that commits the sink's transactions: the bench's paced mode
    // measures latency by those commits, as it does on Weir.
    KafkaSourceBuilder<Event> builder =
        KafkaSource.<Event>builder()
            .setBootstrapServers(bootstrapServers)
            .setTopics(eventsTopic)
            .setGroupId(group)
            .setStartingOffsets(OffsetsInitializer.earliest())
            .setProperty("commit.offsets.on.checkpoint", "true")
            .setValueOnlyDeserializer(new EventDeserializer());
    if (!unbounded) {
      builder.setBounded(OffsetsInitializer.latest());
    }
    KafkaSource<Event> source = builder.build();
    return env.fromSource(
        source,
        WatermarkStrategy.<Event>forBoundedOutOfOrderness(maxOutOfOrderness)
            .withTimestampAssigner((event, previous) -> event.timestamp()),
        "Nexmark events");
  }

  private <R> void write(DataStream<R> results) {
    KafkaSink<R> sink =
        KafkaSink.<R>builder()
            .setBootstrapServers(bootstrapServers)
            .setRecordSerializer(new JsonResults<R>(resultsTopic))
            .setDeliveryGuarantee(DeliveryGuarantee.EXACTLY_ONCE)
            .setTransactionalIdPrefix(group)
            .setProperty("transaction.timeout.ms", TRANSACTION_TIMEOUT_MILLIS)
            .build();
    results.sinkTo(sink).name("Nexmark results");
  }
}

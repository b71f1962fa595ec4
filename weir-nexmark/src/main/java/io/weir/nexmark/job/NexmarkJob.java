package io.weir.nexmark.job;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.queries.NexmarkQueries;
import io.weir.nexmark.queries.NexmarkQuery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A Nexmark query as a job to run with {@code weir run}: events from the topic {@code weir nexmark
 * generate} wrote (up to its end when the job starts, or as it grows with {@code --unbounded}),
 * results exactly once to another topic, or to part files of a directory ({@code --results-dir};
 * q10's in a directory per partition below it). For example {@code weir run --checkpoint-dir
 * /tmp/chk io.weir.nexmark.job.NexmarkJob --query q7 --events-topic events --results-topic q7}.
 * Restarted with the same checkpoint directory, it goes on from its latest checkpoint.
 */
@Command(
    name = "nexmark-job",
    description = "Run one Nexmark query from Kafka to a Kafka topic or to part files.")
public final class NexmarkJob implements Callable<Integer> {
  @Option(names = "--query", required = true, description = "The query, e.g. q7.")
  String queryName;

  @Option(names = "--bootstrap-servers", description = "Default: 127.0.0.1:9092")
  String bootstrapServers = "127.0.0.1:9092";

  @Option(names = "--events-topic", required = true, description = "The generated events.")
  String eventsTopic;

  @ArgGroup(exclusive = true, multiplicity = "1")
  Results results;

  /** Where the results go: exactly one of a topic and a directory. */
  static final class Results {
    @Option(
        names = "--results-topic",
        paramLabel = "TOPIC",
        description = "A topic, one JSON object a record.")
    String topic;

    @Option(
        names = "--results-dir",
        paramLabel = "DIR",
        description =
            "Part files of this directory, one JSON object a line, committed with each"
                + " checkpoint; a partitioned query (q10) writes a directory per partition below"
                + " it, dt=<day>/hm=<minute>.")
    Path directory;
  }

  @Option(
      names = "--rate",
      description =
          "The generator's events per second of event time, which bounds how far out of order"
              + " events are. Default: 10000")
  long eventsPerSecond = GeneratorConfig.DEFAULT_EVENTS_PER_SECOND;

  @Option(
      names = "--group",
      description =
          "The consumer group and transactional id prefix; a fresh start reads from the group's"
              + " committed offsets, so a new group reads the topic again. Default: nexmark-<query>")
  String group;

  @Option(names = "--checkpoint-interval-ms", description = "Default: 1000")
  long checkpointIntervalMillis = 1000;

  @Option(
      names = "--unbounded",
      description =
          "Read the events topic as it grows and run until stopped, instead of up to the end it"
              + " has when the job starts.")
  boolean unbounded;

  private NexmarkJob() {}

  public static void main(String[] args) throws Exception {
    NexmarkJob job = new NexmarkJob();
    CommandLine commandLine = new CommandLine(job);
    try {
      commandLine.parseArgs(args);
    } catch (CommandLine.ParameterException e) {
      // picocli begins some messages with "Error: ", which the runner's "weir: " already says
      throw new IllegalArgumentException(e.getMessage().replaceFirst("^Error: ", ""), e);
    }
    job.call();
  }

  @Override
  public Integer call() throws Exception {
    NexmarkQuery<?> query =
        NexmarkQueries.named(queryName)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "--query "
                            + queryName
                            + " is not a Nexmark query; these are: "
                            + NexmarkQueries.names()));
    GeneratorConfig generator = GeneratorConfig.defaults().withEventsPerSecond(eventsPerSecond);
    Duration interval = Duration.ofMillis(checkpointIntervalMillis);
    String name = group != null ? group : "nexmark-" + query.name();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    QueryJob.build(
        env,
        query,
        new EventInput.FromKafka(
            bootstrapServers, eventsTopic, name, generator.maxOutOfOrderness(), !unbounded),
        results.directory != null
            ? new ResultOutput.ToFiles(results.directory)
            : new ResultOutput.ToKafka(bootstrapServers, results.topic, name, interval),
        interval);
    env.execute("nexmark-" + query.name());
    return 0;
  }
}

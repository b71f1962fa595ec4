package io.weir.nexmark.job;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.queries.NexmarkQueries;
import io.weir.nexmark.queries.NexmarkQuery;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * A Nexmark query as a job to run with {@code weir run}: events from the topic {@code weir nexmark
 * generate} wrote (up to its end when the job starts, or as it grows with {@code --unbounded}),
 * results exactly once to another topic. For example {@code weir run --checkpoint-dir /tmp/chk
 * io.weir.nexmark.job.NexmarkJob --query q7 --events-topic events --results-topic q7}. Restarted
 * with the same checkpoint directory, it goes on from its latest checkpoint.
 */
@Command(name = "nexmark-job", description = "Run one Nexmark query from Kafka to Kafka.")
public final class NexmarkJob implements Callable<Integer> {
  @Option(names = "--query", required = true, description = "The query, e.g. q7.")
  String queryName;

  @Option(names = "--bootstrap-servers", description = "Default: 127.0.0.1:9092")
  String bootstrapServers = "127.0.0.1:9092";

  @Option(names = "--events-topic", required = true, description = "The generated events.")
  String eventsTopic;

  @Option(names = "--results-topic", required = true, description = "Where results go.")
  String resultsTopic;

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
      throw new IllegalArgumentException(e.getMessage(), e);
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
        new ResultOutput.ToKafka(bootstrapServers, resultsTopic, name, interval),
        interval);
    env.execute("nexmark-" + query.name());
    return 0;
  }
}

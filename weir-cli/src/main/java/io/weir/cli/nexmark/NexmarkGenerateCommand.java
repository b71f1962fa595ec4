package io.weir.cli.nexmark;

import io.weir.cli.error.UserError;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.kafka.EventTopicWriter;
import io.weir.nexmark.kafka.EventTopics;
import java.io.PrintWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code weir nexmark generate}: writes the event stream to a topic. */
@Command(
    name = "generate",
    description = "Write Nexmark events to a Kafka topic as JSON, event time as record timestamp.")
final class NexmarkGenerateCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin GeneratorOptions generator;

  @Option(names = "--topic", required = true, paramLabel = "TOPIC", description = "Topic to write.")
  String topic;

  @Option(
      names = "--bootstrap-servers",
      paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers. Default: 127.0.0.1:9092")
  String bootstrapServers = "127.0.0.1:9092";

  @Option(
      names = "--partitions",
      paramLabel = "P",
      description = "Partitions of the topic if it has to be created. Default: 4")
  int partitions = 4;

  @Override
  public void run() {
    GeneratorConfig config = generator.config();
    PrintWriter err = spec.commandLine().getErr();
    try {
      if (new EventTopics(bootstrapServers).createIfMissing(topic, partitions)) {
        err.println(
            "created topic '" + topic + "' (" + partitions + " partitions, no retention by age)");
      }
      long started = System.nanoTime();
      new EventTopicWriter(bootstrapServers, topic)
          .write(
              new EventGenerator(config),
              generator.events,
              written -> {
                err.printf("written %,d of %,d events%n", written, generator.events);
                err.flush();
              });
      double seconds = (System.nanoTime() - started) / 1e9;
      spec.commandLine()
          .getOut()
          .printf(
              "%d events to topic '%s' in %.1f s (seed %d, %d events per second of event time,"
                  + " from %s)%n",
              generator.events,
              topic,
              seconds,
              config.seed(),
              config.eventsPerSecond(),
              config.baseTime());
    } catch (IllegalStateException e) {
      throw new UserError(e.getMessage(), e);
    }
  }
}

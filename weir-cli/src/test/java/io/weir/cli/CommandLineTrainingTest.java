package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training run the launcher records the command archive from, in a JVM of its own that logs
 * every class it loads: it must load the commands that answer and exit, and stay free of the
 * engine's tasks and the Kafka clients, whose mapping would cost those short calls more than the
 * archive saves them.
 */
class CommandLineTrainingTest {
  @TempDir Path directory;

  @Test
  void when_theTrainingRuns_then_itLoadsTheAnsweringCommandsAndNoClient() throws Exception {
    // when
    TrainingJvm.Result training =
        TrainingJvm.run(CommandLineTraining.class, directory, Duration.ofMinutes(1));
    // then
    assertThat(training.ended()).as("the training ended within a minute").isTrue();
    assertThat(training.exitCode()).as(training.errors()).isZero();
    assertThat(training.output()).as("help and version are not shown").isEmpty();
    assertThat(
            List.of(
                "picocli.CommandLine$Help",
                "io.weir.cli.cluster.JobCommands$ListCommand",
                "io.weir.cli.inspect.InspectCommand",
                "io.weir.cli.PlanCommand"))
        .as("classes the training loaded")
        .allMatch(training::loaded);
    // Option types of the Kafka commands are loaded with their help, the clients and tasks are not.
    assertThat(
            List.of(
                "org.apache.kafka.clients.producer.KafkaProducer",
                "org.apache.kafka.clients.NetworkClient",
                "io.weir.runtime.task.StreamTask"))
        .as("classes the training must not load")
        .noneMatch(training::loaded);
  }
}

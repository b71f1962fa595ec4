package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
    // given
    Path classes = directory.resolve("classes.log");
    Path output = directory.resolve("training.out");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xlog:class+load=info:file=" + classes,
            "-cp",
            System.getProperty("java.class.path"),
            CommandLineTraining.class.getName());
    // when
    Process training =
        new ProcessBuilder(command)
            .redirectError(directory.resolve("training.err").toFile())
            .redirectOutput(output.toFile())
            .start();
    boolean ended = training.waitFor(1, TimeUnit.MINUTES);
    if (!ended) {
      training.destroyForcibly();
    }
    // then
    assertThat(ended).as("the training ended within a minute").isTrue();
    assertThat(training.exitValue())
        .as(Files.readString(directory.resolve("training.err")))
        .isZero();
    assertThat(output).as("help and version are not shown").isEmptyFile();
    String loaded = Files.readString(classes);
    assertThat(
            List.of(
                "picocli.CommandLine$Help",
                "io.weir.cli.cluster.JobCommands$ListCommand",
                "io.weir.cli.inspect.InspectCommand",
                "io.weir.cli.PlanCommand"))
        .as("classes the training loaded")
        .allMatch(name -> loaded.contains(" " + name + " source: "));
    // Option types of the Kafka commands are loaded with their help, the clients and tasks are not.
    assertThat(loaded)
        .doesNotContain(
            " org.apache.kafka.clients.producer.KafkaProducer ",
            " org.apache.kafka.clients.NetworkClient ",
            " io.weir.runtime.task.");
  }
}

package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training run the launcher records its class-data sharing archive from, in a JVM of its own
 * that logs every class it loads: the archive holds what the training loads, so a training that
 * never talked to a broker would leave every Kafka job loading its connectors' classes from the
 * jars.
 */
class ClassDataSharingTrainingTest {
  @TempDir Path directory;

  @Test
  void when_theTrainingRuns_then_itLoadsTheClassesOfAnExactlyOnceJobTalkingToABroker()
      throws Exception {
    // given
    Path classes = directory.resolve("classes.log");
    Path output = directory.resolve("training.log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m",
            "-Xlog:class+load=info:file=" + classes,
            "-cp",
            System.getProperty("java.class.path"),
            ClassDataSharingTraining.class.getName());
    // when
    Process training =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    boolean ended = training.waitFor(3, TimeUnit.MINUTES);
    if (!ended) {
      training.destroyForcibly();
    }
    // then
    assertThat(ended).as("the training ended within 3 minutes").isTrue();
    assertThat(training.exitValue()).as(Files.readString(output)).isZero();
    String loaded = Files.readString(classes);
    // A request was in flight to a broker (a client that only starts sends none), and the Kafka
    // connectors' source and exactly-once sink ran.
    List<String> missing =
        List.of(
                "org.apache.kafka.clients.NetworkClient$InFlightRequest",
                "io.weir.kafka.source.PartitionReader",
                "io.weir.kafka.sink.TransactionalKafkaSink")
            .stream()
            .filter(name -> !loaded.contains(" " + name + " source: "))
            .toList();
    assertThat(missing).as("classes the training did not load").isEmpty();
  }
}

package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training run the launcher records its job archive from, in a JVM of its own that logs every
 * class it loads: the archive holds what the training loads, so a training that never talked to a
 * broker would leave every Kafka job loading its connectors' classes from the jars.
 */
class ClassDataSharingTrainingTest {
  @TempDir Path directory;

  @Test
  void when_theTrainingRuns_then_itLoadsTheClassesOfAnExactlyOnceJobTalkingToABroker()
      throws Exception {
    // when
    TrainingJvm.Result training =
        TrainingJvm.run(
            ClassDataSharingTraining.class, directory, Duration.ofMinutes(3), "-Xmx256m");
    // then
    assertThat(training.ended()).as("the training ended within 3 minutes").isTrue();
    assertThat(training.exitCode()).as(training.output() + training.errors()).isZero();
    // A request was in flight to a broker (a client that only starts sends none), and the Kafka
    // connectors' source and exactly-once sink ran; a cluster client submitted the job, which a
    // job manager ran on a task manager.
    assertThat(
            List.of(
                "org.apache.kafka.clients.NetworkClient$InFlightRequest",
                "io.weir.kafka.source.PartitionReader",
                "io.weir.kafka.sink.TransactionalKafkaSink",
                "io.weir.cli.cluster.ClusterSubmit",
                "io.weir.cluster.jobmanager.ClusterJob",
                "io.weir.cluster.taskmanager.TaskManagerAttempt"))
        .as("classes the training loaded")
        .allMatch(training::loaded);
  }
}

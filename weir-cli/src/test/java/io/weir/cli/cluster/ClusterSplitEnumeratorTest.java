package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.state.StateSerializer;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka source's enumerator on a cluster's job manager (a job manager and two task managers,
 * each its own process): partitions added while the job runs are found by the enumerator, assigned
 * to the readers on the task managers over the cluster's connections, and checkpointed in the
 * checkpoint's metadata; a task manager killed with SIGKILL after the discovery and before the next
 * checkpoint loses and doubles nothing.
 */
class ClusterSplitEnumeratorTest {
  // Long enough that no checkpoint falls between the discovery and the kill; the first output
  // still makes one due at once.
  private static final long CHECKPOINT_INTERVAL_MILLIS = 15_000;

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;
  private LocalClusterProcesses cluster;

  @AfterEach
  void stop() throws InterruptedException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void when_taskManagerKilledBetweenDiscoveryAndTheNextCheckpoint_then_everyRecordIsReadOnce()
      throws Exception {
    // given: the seed job on two partitions, one reader on each task manager, 3,000 records
    // committed and a checkpoint completed after them
    Topics.create(kafka.bootstrapServers(), 2, "foo", "bar");
    SeedInput input = new SeedInput(kafka.bootstrapServers(), "foo");
    long before = 3000;
    long after = 3000;
    cluster = new LocalClusterProcesses(directory, "").start();
    try (ClusterClient client = cluster.client()) {
      JobStatus job = client.submit(seedJob());
      await().atMost(Duration.ofSeconds(60)).until(() -> lastCheckpoint(client, job) >= 1);
      input.load(0, before, 0);
      awaitCommitted(before);
      long committedCheckpoint = lastCheckpoint(client, job);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> lastCheckpoint(client, job) > committedCheckpoint);
      long checkpointBeforeDiscovery = lastCheckpoint(client, job);

      // when: the topic grows to four partitions, 3,000 more records arrive on all four, the
      // enumerator assigns the new partitions and their records are read (not yet committed),
      // and a task manager is killed with SIGKILL before the next checkpoint
      Topics.grow(kafka.bootstrapServers(), "foo", 4);
      input.load(before, before + after, 0);
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> output().read(false).verify(0, before + after).lost() == 0);
      assertThat(lastCheckpoint(client, job))
          .as("no checkpoint between the discovery and the kill")
          .isEqualTo(checkpointBeforeDiscovery);
      LocalClusterProcesses.kill(cluster.taskManager(2));
      assertThat(enumeratorState(checkpointBeforeDiscovery))
          .as("the job manager's enumerator checkpointed the partitions it had assigned")
          .contains("foo-1")
          .doesNotContain("foo-2");

      // then: the job recovers on the other task manager, its enumerator restored from that
      // checkpoint assigns the added partitions again, and every record is committed once
      awaitCommitted(before + after);
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(10))
          .until(() -> output().read(true).verify(0, before + after).duplicated() == 0);
      OutputVerifier.Verdict verdict = output().read(true).verify(0, before + after);
      assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
      assertThat(client.job(job.jobId()).restarts()).isGreaterThanOrEqualTo(1);
      assertThat(client.job(job.jobId()).state()).isEqualTo("RUNNING");
    }
  }

  private static long lastCheckpoint(ClusterClient client, JobStatus job) throws Exception {
    return client.job(job.jobId()).lastCheckpointId();
  }

  private static OutputVerifier output() {
    return new OutputVerifier(kafka.bootstrapServers(), "bar");
  }

  private static void awaitCommitted(long records) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> output().read(true).verify(0, records).lost() == 0);
  }

  /** The source enumerator's state in checkpoint {@code checkpointId}, as its record's text. */
  private String enumeratorState(long checkpointId) throws Exception {
    Path jobDirectory;
    try (Stream<Path> files = Files.walk(cluster.checkpointDirectory(), 2)) {
      jobDirectory =
          files
              .filter(path -> path.getFileName().toString().startsWith("chk-"))
              .findFirst()
              .orElseThrow()
              .getParent();
    }
    CompletedCheckpoint checkpoint =
        CheckpointLoader.load(
            jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId)));
    Map<String, byte[]> states = checkpoint.enumeratorStates();
    assertThat(states).as("enumerator states of checkpoint %d", checkpointId).hasSize(1);
    return StateSerializer.java().deserialize(states.values().iterator().next()).toString();
  }

  private JobSubmission seedJob() {
    List<String> args =
        List.of(
            "--bootstrap",
            kafka.bootstrapServers(),
            "--input-topic",
            "foo",
            "--output-topic",
            "bar",
            "--group",
            "group-foo",
            "--transactional-id-prefix",
            "seed-split",
            "--checkpoint-interval",
            "" + CHECKPOINT_INTERVAL_MILLIS,
            "--partition-discovery-interval",
            "300");
    return new JobSubmission("io.weir.examples.SeedJob", args, 2, null, null, false);
  }
}

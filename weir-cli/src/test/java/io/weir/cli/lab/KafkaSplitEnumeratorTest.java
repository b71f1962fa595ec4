package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.state.StateSerializer;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed job's Kafka source with its enumerator on the job manager: partitions added while the
 * job runs are found by the enumerator and assigned to one reader each, and what it assigned is in
 * the checkpoint's metadata; a job killed with SIGKILL and resumed, also with more readers, reads
 * every record once.
 */
class KafkaSplitEnumeratorTest {
  private static final List<String> QUICK_DISCOVERY =
      List.of("--partition-discovery-interval", "300");

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_killedBetweenDiscoveryAndTheNextCheckpoint_then_theAddedPartitionsAreReadOnce()
      throws Exception {
    // given: the seed job on two partitions, whose checkpoints after the first output are a
    // minute apart, 3,000 records committed
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory, 2);
    long before = 3000;
    long after = 3000;
    List<String> slowCheckpoints = List.of("--checkpoint-interval", "60000");
    try (JobProcess first =
        scenario.start(null, List.of(), concat(QUICK_DISCOVERY, slowCheckpoints))) {
      scenario.awaitFirstCheckpoint(first);
      scenario.feed(0, before, 0).join();
      awaitCommitted(scenario, before);

      // when: the topic grows to four partitions, 3,000 more records arrive on all four, the
      // enumerator assigns the new partitions and their records are read (not yet committed),
      // and the job is killed with SIGKILL before its next checkpoint
      Topics.grow(kafka.bootstrapServers(), scenario.inputTopic(), 4);
      scenario.feed(before, before + after, 0).join();
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> scenario.readUncommitted().verify(0, before + after).lost() == 0);
      first.kill();
    }
    String state = enumeratorState(latestCheckpoint());
    assertThat(state)
        .as("the last checkpoint was taken before the discovery")
        .contains(scenario.inputTopic() + "-1")
        .doesNotContain(scenario.inputTopic() + "-2");

    // and: resumed from that checkpoint, its enumerator assigning the partitions again
    try (JobProcess resumed = scenario.start(null, List.of(), QUICK_DISCOVERY)) {
      awaitCommitted(scenario, before + after);
      resumed.kill();
    }

    // then: every record once
    OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, before + after);
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
  }

  @Test
  void when_resumedWithThreeReadersAfterPartitionsWereAdded_then_everyRecordIsReadOnce()
      throws Exception {
    // given: the seed job with two readers on two partitions; the topic grew to four while it
    // ran, and the enumerator's checkpoint holds all four, assigned
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory, 2);
    long first = 3000;
    long second = 3000;
    long third = 3000;
    try (JobProcess job = scenario.start(null, List.of("-p", "2"), QUICK_DISCOVERY)) {
      scenario.awaitFirstCheckpoint(job);
      scenario.feed(0, first, 0).join();
      awaitCommitted(scenario, first);
      Topics.grow(kafka.bootstrapServers(), scenario.inputTopic(), 4);
      scenario.feed(first, first + second, 0).join();
      awaitCommitted(scenario, first + second);
      job.kill();
    }
    assertThat(enumeratorState(latestCheckpoint())).contains(scenario.inputTopic() + "-3");

    // when: while it is down the topic grows to six partitions and more records arrive, and the
    // job resumes with three readers
    Topics.grow(kafka.bootstrapServers(), scenario.inputTopic(), 6);
    scenario.feed(first + second, first + second + third, 0).join();
    try (JobProcess resumed = scenario.start(null, List.of("-p", "3"), QUICK_DISCOVERY)) {
      awaitCommitted(scenario, first + second + third);
      resumed.kill();
    }

    // then: every record once
    OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, first + second + third);
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
  }

  private static void awaitCommitted(SeedJobScenario scenario, long records) {
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> scenario.readCommitted().verify(0, records).lost() == 0);
  }

  /** The newest valid checkpoint of the job (in a directory of its own below the one given). */
  private CompletedCheckpoint latestCheckpoint() throws Exception {
    try (Stream<Path> files = Files.walk(directory.resolve("checkpoints"), 3)) {
      Path jobDirectory =
          files
              .filter(path -> path.getFileName().toString().startsWith("chk-"))
              .findFirst()
              .orElseThrow()
              .getParent();
      return CheckpointLoader.load(jobDirectory);
    }
  }

  /** The source enumerator's state in {@code checkpoint}, as its record's text. */
  private static String enumeratorState(CompletedCheckpoint checkpoint) {
    Map<String, byte[]> states = checkpoint.enumeratorStates();
    assertThat(states).hasSize(1);
    return StateSerializer.java().deserialize(states.values().iterator().next()).toString();
  }

  private static List<String> concat(List<String> first, List<String> second) {
    return Stream.concat(first.stream(), second.stream()).toList();
  }
}

package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.lab.process.JobProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** What the seed job on Kafka tells its user when the broker, a topic or a record is wrong. */
class KafkaJobErrorsTest {
  // A broker may take long to serve while the machine is busy; the tests poll, so wait for it.
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_bootstrapIsUnreachable_then_theJobFailsWithinTheStartTimeoutNamingTheAddress()
      throws Exception {
    // given: no broker at the address
    String address = "127.0.0.1:" + freePort();
    List<String> args =
        List.of(
            "--checkpoint-dir",
            directory.resolve("checkpoints").toString(),
            "io.weir.examples.SeedJob",
            "--bootstrap",
            address,
            "--start-timeout",
            "3000");

    // when
    try (JobProcess job = JobProcess.start(args, null, directory.resolve("job.log"))) {
      // then: it fails once the start timeout passed, instead of restarting for ever
      assertThat(job.waitFor(60_000)).isEqualTo(1);
      assertThat(SeedJobScenario.log(job))
          .contains("Cannot reach Kafka at " + address + " within 3 s")
          .contains("not restarted");
    }
  }

  @Test
  void when_inputTopicIsMissing_then_theLogNamesTheTopic() throws Exception {
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    List<String> args =
        List.of(
            "--checkpoint-dir",
            directory.resolve("checkpoints").toString(),
            "io.weir.examples.SeedJob",
            "--bootstrap",
            kafka.bootstrapServers(),
            "--input-topic",
            "no-such-topic",
            "--output-topic",
            scenario.outputTopic());
    try (JobProcess job = JobProcess.start(args, null, directory.resolve("job.log"))) {
      await()
          .atMost(Duration.ofSeconds(40))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> SeedJobScenario.log(job).contains("Topic 'no-such-topic' does not exist"));
    }
  }

  @Test
  void when_aRecordCannotBeDeserialized_then_theJobFailsAtOnceNamingItsPosition() throws Exception {
    // given: a record without value at offset 0 of partition 0
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      producer.send(new ProducerRecord<>(scenario.inputTopic(), 0, "key", null)).get();
    }

    // when / then
    try (JobProcess job = scenario.start(null)) {
      // Restarting cannot cure an unreadable record: the job ends instead of retrying for ever.
      assertThat(job.waitFor(40_000)).isEqualTo(1);
      assertThat(SeedJobScenario.log(job))
          .contains(
              "Cannot deserialize the record at offset 0 of topic '"
                  + scenario.inputTopic()
                  + "', partition 0: the record has no value")
          .contains("not restarted");
    }
  }

  @Test
  void when_aRecordFailsTheJobThreeTimes_then_theJobFailsNamingTheRecord() throws Exception {
    // given: an empty value, which the seed job's key selector rejects, at offset 0 of partition 0
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      producer.send(new ProducerRecord<>(scenario.inputTopic(), 0, "key", "")).get();
    }

    // when
    try (JobProcess job = scenario.start(null)) {
      // then: two restarts, then one line naming the record and how to go on
      assertThat(job.waitFor(90_000)).isEqualTo(1);
      String log = SeedJobScenario.log(job);
      assertThat(log)
          .contains(
              "not restarted: the record of "
                  + scenario.inputTopic()
                  + "-0 at offset 0 (value \"\") failed the job 3 times in a row; fix the"
                  + " function that rejects it, then resume")
          .contains("Not a word,frequency,timestamp record");
      assertThat(log.split("restarting in", -1)).hasSize(3);
    }
  }

  @Test
  void when_badRecordsAreSkipped_then_theJobGoesOnWithEveryGoodRecordOnce() throws Exception {
    // given: a record without value at offset 0 of partition 0, then good records
    SeedJobScenario scenario =
        new SeedJobScenario(kafka.bootstrapServers(), directory, "--on-bad-record", "skip");
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      producer.send(new ProducerRecord<>(scenario.inputTopic(), 0, "key", null)).get();
    }
    scenario.feed(0, 200, 1000).get();

    // when
    try (JobProcess job = scenario.start(null)) {
      // then: every good record is committed once, and the skipped one is logged by position
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> scenario.readCommitted().verify(0, 200).lost() == 0);
      assertThat(scenario.readCommitted().verify(0, 200).duplicated()).isZero();
      assertThat(SeedJobScenario.log(job))
          .contains(
              "Cannot deserialize the record at offset 0 of topic '"
                  + scenario.inputTopic()
                  + "', partition 0: the record has no value; skipped");
    }
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}

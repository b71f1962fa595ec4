package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.devservers.kafka.KafkaBroker;
import io.weir.kafka.testing.KafkaClusterExtension;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.JobProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TransactionDescription;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.common.TopicPartitionInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed job, exactly-once, on a three-broker cluster (replication factor 3, {@code
 * min.insync.replicas=2}) while the broker coordinating its sink's transactions is killed with
 * SIGKILL and later restarted: the job keeps running, and a {@code read_committed} reader of the
 * output sees every input record exactly once.
 */
class KafkaClusterBrokerKillTest {
  static final long RATE = 150;

  @RegisterExtension static final KafkaClusterExtension kafka = new KafkaClusterExtension();

  @TempDir Path directory;

  @Test
  void when_transactionCoordinatorIsKilledAndRestarted_then_everyRecordIsCommittedOnce()
      throws Exception {
    // given: the seed job running on replicated topics, input arriving steadily
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", kafka.bootstrapServers()))) {
      assertThat(replicas(admin, scenario.outputTopic())).containsOnly(3);
      assertThat(replicas(admin, scenario.inputTopic())).containsOnly(3);
      try (JobProcess job = scenario.start(null)) {
        scenario.awaitFirstCheckpoint(job);
        long fed;
        String sinkId;
        TransactionDescription before;
        TransactionDescription during;
        long stallMillis;
        try (ContinuousFeed feed = scenario.feedContinuously(RATE)) {
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> scenario.readCommitted().records() > RATE * 2);

          // when: the coordinator of the sink's transactions dies, and comes back later
          sinkId = sinkTransactionalId(admin, scenario);
          before = describe(admin, sinkId);
          KafkaBroker victim = kafka.cluster().broker(before.coordinatorId());
          long committedAtKill = scenario.readCommitted().records();
          long killed = System.nanoTime();
          victim.kill();
          await()
              .atMost(Duration.ofSeconds(90))
              .pollInterval(Duration.ofMillis(100))
              .until(() -> scenario.readCommitted().records() > committedAtKill);
          stallMillis = (System.nanoTime() - killed) / 1_000_000;
          during = describe(admin, sinkId);
          victim.restart();
          long committedAtRestart = scenario.readCommitted().records();
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> scenario.readCommitted().records() > committedAtRestart + RATE * 2);
          fed = feed.stop();
        }

        // then
        await()
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(300))
            .until(() -> scenario.readCommitted().verify(0, fed).lost() == 0);
        // A late duplicate would come with a later checkpoint: watch a few more.
        await()
            .during(SeedJobScenario.CHECKPOINT_INTERVAL.multipliedBy(3))
            .atMost(Duration.ofSeconds(10))
            .until(() -> scenario.readCommitted().verify(0, fed).duplicated() == 0);
        OutputVerifier.Verdict committed = scenario.readCommitted().verify(0, fed);
        OutputVerifier.Verdict uncommitted = scenario.readUncommitted().verify(0, fed);
        System.out.printf(
            "cluster: killed broker %d (coordinator of %s, producer epoch %d), committed output"
                + " stalled %d ms; coordinator while it was down: broker %d (producer epoch %d);"
                + " read_committed %s; read_uncommitted %s%n",
            before.coordinatorId(),
            sinkId,
            before.producerEpoch(),
            stallMillis,
            during.coordinatorId(),
            during.producerEpoch(),
            committed.line(),
            uncommitted.line());
        assertThat(job.isAlive()).as("job alive, see %s", job.log()).isTrue();
        assertThat(committed.exactlyOnce()).as(committed.line()).isTrue();
        assertThat(committed.out()).isEqualTo(fed);
        assertThat(during.coordinatorId()).isNotEqualTo(before.coordinatorId());
      }
    }
  }

  private static List<Integer> replicas(Admin admin, String topic) throws Exception {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .get(30, TimeUnit.SECONDS)
        .get(topic)
        .partitions()
        .stream()
        .map(TopicPartitionInfo::replicas)
        .map(List::size)
        .toList();
  }

  /** The first of the sink's transactional ids (listed by every broker, so before the kill). */
  private static String sinkTransactionalId(Admin admin, SeedJobScenario scenario)
      throws Exception {
    return admin.listTransactions().all().get(30, TimeUnit.SECONDS).stream()
        .map(TransactionListing::transactionalId)
        .filter(each -> each.startsWith(scenario.transactionalIdPrefix()))
        .sorted()
        .findFirst()
        .orElseThrow(() -> new AssertionError("the sink has no transactional id yet"));
  }

  /** The transaction as its coordinator, found anew, describes it now. */
  private static TransactionDescription describe(Admin admin, String id) throws Exception {
    return admin.describeTransactions(List.of(id)).all().get(30, TimeUnit.SECONDS).get(id);
  }
}

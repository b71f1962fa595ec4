package io.weir.cluster.ha;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobJar;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.devservers.process.FreePorts;
import io.weir.devservers.zookeeper.ZooKeeperServerRunner;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Leader election, the job store and the checkpoint pointer against a real ZooKeeper server in a
 * process of its own: each new leader's epoch is higher, and a deposed leader's writes are refused
 * even from a new session.
 */
class ZooKeeperHighAvailabilityTest {
  @TempDir static Path directory;
  private static Process server;
  private static String url;
  private static int roots;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    int port = FreePorts.pick();
    server =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-cp",
                System.getProperty("java.class.path"),
                ZooKeeperServerRunner.class.getName(),
                directory.toString(),
                "" + port)
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("zookeeper.log").toFile())
            .start();
    url = "zookeeper://127.0.0.1:" + port;
  }

  @AfterAll
  static void stopZooKeeper() throws InterruptedException {
    server.destroyForcibly().waitFor();
  }

  @Test
  void when_leaderSteps_then_theNextOneRecoversItsJobsAndTheDeposedOneCannotWrite()
      throws Exception {
    // given: a leader that stored a job and pointed it to checkpoint 7
    String root = url + "/test" + ++roots;
    JobSubmission submission =
        new JobSubmission(
            "com.example.Job",
            List.of("--in", "a b", ""),
            2,
            "/checkpoints",
            null,
            true,
            new JobJar("job.jar", "ab12"),
            false,
            true);
    BlockingQueue<LeaderEpoch> firstTerms = new ArrayBlockingQueue<>(4);
    ZooKeeperHighAvailability first = elect(root, 1001, firstTerms);
    LeaderEpoch firstTerm = firstTerms.poll(60, TimeUnit.SECONDS);
    assertThat(firstTerm.epoch()).isEqualTo(1);
    first.storeJob(firstTerm, "job1", submission);
    first.pointToCheckpoint(firstTerm, "job1", 7, "/checkpoints/job/chk-7");
    first.claimCheckpointId(firstTerm, "job1", 8);
    first.storeJob(firstTerm, "job2", submission);

    // when: it leaves and another job manager leads
    BlockingQueue<LeaderEpoch> secondTerms = new ArrayBlockingQueue<>(4);
    ZooKeeperHighAvailability second = elect(root, 1002, secondTerms);
    first.close();
    LeaderEpoch secondTerm = secondTerms.poll(60, TimeUnit.SECONDS);

    // then: a higher epoch, the job as submitted and its pointer, and the old term fenced
    assertThat(secondTerm.epoch()).isEqualTo(2);
    List<StoredJob> jobs =
        second.storedJobs().stream().sorted(Comparator.comparing(StoredJob::jobId)).toList();
    assertThat(jobs).hasSize(2);
    assertThat(jobs.get(0).submission()).isEqualTo(submission);
    // then: a job without a pointer starts from scratch again, never from an unnamed _metadata
    assertThat(jobs.get(1).recoverySubmission().restorePath()).isNull();
    assertThat(jobs.get(1).recoverySubmission().fresh()).isTrue();
    assertThat(jobs.get(0).recoverySubmission().restorePath()).isEqualTo("/checkpoints/job/chk-7");
    assertThat(jobs.get(0).recoverySubmission().fresh()).isFalse();
    try (ZooKeeperHighAvailability deposed = new ZooKeeperHighAvailability(connect(root))) {
      assertThatThrownBy(
              () -> deposed.pointToCheckpoint(firstTerm, "job1", 8, "/checkpoints/job/chk-8"))
          .isInstanceOf(DeposedLeaderException.class);
      assertThatThrownBy(() -> deposed.removeJob(firstTerm, "job1"))
          .isInstanceOf(DeposedLeaderException.class);
      // then: the deposed term claims no more ids; the new one starts above its last claim
      assertThatThrownBy(() -> deposed.claimCheckpointId(firstTerm, "job1", 9))
          .isInstanceOf(DeposedLeaderException.class);
    }
    assertThat(second.lastClaimedCheckpointId("job1")).isEqualTo(8);
    assertThat(second.lastClaimedCheckpointId("job2")).isZero();
    second.claimCheckpointId(secondTerm, "job1", 9);
    assertThat(second.lastClaimedCheckpointId("job1")).isEqualTo(9);
    assertThat(second.storedJobs())
        .filteredOn(job -> job.jobId().equals("job1"))
        .extracting(StoredJob::latestCheckpoint)
        .containsExactly("/checkpoints/job/chk-7");
    try (ClusterZooKeeper client = connect(root)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> new LeaderLookup(client).current().map(LeaderInfo::pid).orElse(0L) == 1002L);
      assertThat(new ClusterMembers(client).jobManagers())
          .containsExactly(
              new ClusterMembers.JobManagerMember(new HostAndPort("127.0.0.1", 1002), 1002, true));
    }
    second.removeJob(secondTerm, "job1");
    second.removeJob(secondTerm, "job2");
    assertThat(second.storedJobs()).isEmpty();
    second.close();
  }

  @Test
  void when_leaderStepsDown_then_anotherLeadsAndItStandsByToLeadAgain() throws Exception {
    // given: a leader and a standby
    String root = url + "/test" + ++roots;
    BlockingQueue<LeaderEpoch> firstTerms = new ArrayBlockingQueue<>(4);
    BlockingQueue<LeaderEpoch> firstEnded = new ArrayBlockingQueue<>(4);
    ZooKeeperHighAvailability first = elect(root, 1001, firstTerms, firstEnded);
    LeaderEpoch firstTerm = firstTerms.poll(60, TimeUnit.SECONDS);
    BlockingQueue<LeaderEpoch> secondTerms = new ArrayBlockingQueue<>(4);
    ZooKeeperHighAvailability second = elect(root, 1002, secondTerms, new ArrayBlockingQueue<>(4));
    // The standby's latch joins in the background: a leader that steps down before it has joined
    // wins again, being the only one in the running.
    try (ClusterZooKeeper client = connect(root)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.client().getChildren().forPath(HaPaths.LEADER_LATCH).size() == 2);
    }

    assertThat(first.confirmLeadership(firstTerm)).isTrue();

    // when: the leader steps down (as on a write that found a newer epoch)
    first.stepDown(firstTerm);

    // then: its term ends once, the standby leads, and the deposed one stands by
    assertThat(firstEnded.poll(60, TimeUnit.SECONDS)).isEqualTo(firstTerm);
    LeaderEpoch secondTerm = secondTerms.poll(60, TimeUnit.SECONDS);
    assertThat(secondTerm.epoch()).isEqualTo(firstTerm.epoch() + 1);
    assertThat(first.isLeader()).isFalse();
    assertThat(first.confirmLeadership(firstTerm)).isFalse();
    first.stepDown(firstTerm);
    try (ClusterZooKeeper client = connect(root)) {
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> new LeaderLookup(client).current().map(LeaderInfo::pid).orElse(0L) == 1002L);
      assertThat(new ClusterMembers(client).jobManagers())
          .extracting(ClusterMembers.JobManagerMember::pid, ClusterMembers.JobManagerMember::leader)
          .containsExactlyInAnyOrder(
              org.assertj.core.groups.Tuple.tuple(1001L, false),
              org.assertj.core.groups.Tuple.tuple(1002L, true));
    }

    // when: the new leader leaves, then: the deposed one leads again, in a newer epoch
    second.close();
    assertThat(firstTerms.poll(60, TimeUnit.SECONDS).epoch()).isEqualTo(secondTerm.epoch() + 1);
    assertThat(firstEnded).isEmpty();
    first.close();
  }

  private static ZooKeeperHighAvailability elect(
      String root, int port, BlockingQueue<LeaderEpoch> terms) throws Exception {
    return elect(root, port, terms, new ArrayBlockingQueue<>(4));
  }

  private static ZooKeeperHighAvailability elect(
      String root, int port, BlockingQueue<LeaderEpoch> terms, BlockingQueue<LeaderEpoch> ended)
      throws Exception {
    ZooKeeperHighAvailability candidate = new ZooKeeperHighAvailability(connect(root));
    candidate.runForLeadership(
        new HostAndPort("127.0.0.1", port),
        port,
        new JobManagerHighAvailability.LeadershipListener() {
          @Override
          public void granted(LeaderEpoch epoch) {
            terms.add(epoch);
          }

          @Override
          public void revoked(LeaderEpoch epoch) {
            ended.add(epoch);
          }
        });
    return candidate;
  }

  private static ClusterZooKeeper connect(String root) throws InterruptedException {
    return ClusterZooKeeper.connect(
        ZooKeeperAddress.parse("test", root), Duration.ofSeconds(4), Duration.ofSeconds(60));
  }
}

package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cli.WeirCli;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.devservers.process.FreePorts;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Job manager high availability with real processes: a real ZooKeeper, a real broker, two job
 * managers and two task managers, the seed job exactly-once with input arriving. The leader is lost
 * again and again, a few seconds after each new leader's first commit: killed ({@code kill -9}, and
 * a new job manager started in its place) or frozen ({@code SIGSTOP}, then woken with {@code
 * SIGCONT}, when it comes back as a standby and may lead again later). Each time a standby takes
 * over and recovers the job from its latest completed checkpoint without a resubmission, and in the
 * end a {@code read_committed} reader sees every input id exactly once, watched long enough for a
 * late duplicate. Two failovers in the suite, frozen then killed: the kill makes the job manager
 * frozen before lead again. {@code -Dweir.failovers=N} sets how many.
 *
 * <p>The first failover freezes the leader in the last fencing window: after it confirmed its
 * leadership and before it writes a checkpoint's {@code _metadata} (the first job manager pauses
 * there at every checkpoint, and is stopped while it does). Woken after its successor completed
 * checkpoints of its own, it may still complete that one: none of its successor's checkpoints
 * shares its id, and the next recovery restores what the pointer names. {@code
 * -Dweir.failovers.freezeAtMetadata=false} leaves the pause out, for failover times that it does
 * not lengthen.
 */
class JobManagerFailoverTest {
  private static final long CHECKPOINT_INTERVAL_MILLIS = 500;
  private static final int FAILOVERS = Integer.getInteger("weir.failovers", 2);
  private static final AtomicInteger RUNS = new AtomicInteger();
  private static final boolean FREEZE_AT_METADATA =
      Boolean.parseBoolean(System.getProperty("weir.failovers.freezeAtMetadata", "true"));
  private static final String PAUSE_AT_METADATA = "coordinator.metadata.confirmed=pause(2000)";
  private static final String PAUSED_LINE =
      "failpoint " + "coordinator.metadata.confirmed" + " hit: pausing";
  private static final String PAUSE_BEFORE_SINK_RECOVERY = "recovery.sinks.before=pause(4000)";
  private static final String PAUSED_BEFORE_SINK_RECOVERY_LINE =
      "failpoint " + "recovery.sinks.before" + " hit: pausing";
  private static final Pattern COMPLETED =
      Pattern.compile("Checkpoint (\\d+) of job 'seed' complete");

  /** How a leader is lost. */
  private enum LeaderLoss {
    KILLED,
    FROZEN
  }

  /**
   * One failover's times, in ms since the leader was lost, and where they went by the new leader's
   * log ({@link FailoverTimeline}).
   */
  private record Failover(
      int number,
      LeaderLoss loss,
      long leadsMillis,
      long runningMillis,
      long committedMillis,
      String timeline) {
    String line() {
      return String.format(
          "failover %d (leader %s): a standby leads after %d ms, runs the job after %d ms, first"
              + " committed output of its own after %d ms; %s",
          number, loss.name().toLowerCase(), leadsMillis, runningMillis, committedMillis, timeline);
    }
  }

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir static Path zooKeeperDirectory;
  private static String zooKeeperUrl;

  @TempDir Path directory;
  private HaClusterProcesses cluster;
  private String name;
  private final AtomicBoolean feeding = new AtomicBoolean(true);

  @BeforeAll
  static void startZooKeeper() throws Exception {
    int port = FreePorts.pick();
    assertThat(
            WeirCli.run(
                "zookeeper", "start", "--dir", zooKeeperDirectory.toString(), "--port", "" + port))
        .isZero();
    zooKeeperUrl = "zookeeper://127.0.0.1:" + port;
  }

  @AfterAll
  static void stopZooKeeper() {
    WeirCli.run("zookeeper", "stop", "--dir", zooKeeperDirectory.toString());
  }

  @AfterEach
  void stop() throws InterruptedException {
    feeding.set(false);
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void when_leaderKilledOrFrozenAgainAndAgain_then_theJobGoesOnExactlyOnceAndFrozenOnesStandBy()
      throws Exception {
    // given: the seed job on the leader, committing, with input arriving
    String url = newCluster();
    cluster =
        new HaClusterProcesses(directory, logs(), url)
            .start(FREEZE_AT_METADATA ? PAUSE_AT_METADATA : null);
    AtomicLong fed = new AtomicLong();
    String jobId = submitAndAwaitCommits(fed);
    assertStatusLists(cluster.leader().orElseThrow(), url);

    // when: the leader is lost, frozen and killed by turns, each time once its successor committed
    List<Failover> failovers = new ArrayList<>();
    for (int number = 1; number <= FAILOVERS; number++) {
      LeaderLoss loss = number % 2 == 1 ? LeaderLoss.FROZEN : LeaderLoss.KILLED;
      failovers.add(loseLeader(number, loss, jobId));
    }

    // then: every failover recovered the job, and the job went on exactly once
    failovers.forEach(failover -> System.out.println(name + ": " + failover.line()));
    stopFeedingAfterNewOutput(committed());
    try (ClusterClient client = cluster.leaderClient()) {
      assertThat(client.job(jobId).state()).isEqualTo("RUNNING");
    }
    assertExactlyOnce(fed.get());
    assertThat(cluster.aliveJobManagers()).hasSize(2);
    assertStatusLists(cluster.leader().orElseThrow(), url);
  }

  /**
   * A leader frozen just before it settles the sinks of the job's first attempt (aborting what
   * earlier runs left open, under the transactional ids the job's subtasks use), and woken after
   * its successor runs the job and committed: it confirms its term afresh, finds itself deposed and
   * settles nothing, so nothing of its successor's attempt is aborted or fenced.
   */
  @Test
  void when_leaderFrozenBeforeItsSinkRecovery_then_wokenItSettlesNothing_andTheJobIsExact()
      throws Exception {
    // given: the first job manager pauses before every sink recovery step of its jobs
    String url = newCluster();
    cluster = new HaClusterProcesses(directory, logs(), url).start(PAUSE_BEFORE_SINK_RECOVERY);
    LeaderInfo deposed = cluster.leader().orElseThrow();
    Process leader = cluster.leaderProcess();
    Path leaderLog = cluster.logOf(leader);
    AtomicLong fed = new AtomicLong();
    feed(fed, 2_000);
    String jobId;
    try (ClusterClient client = cluster.leaderClient()) {
      jobId = client.submit(seedJob(2)).jobId();
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> Files.readString(leaderLog).contains(PAUSED_BEFORE_SINK_RECOVERY_LINE));

    // when: frozen there, and woken once its successor runs the job and committed
    long since = System.nanoTime();
    LocalTime lostAt = LocalTime.now();
    LocalClusterProcesses.signal(leader, "-STOP");
    Failover failover;
    try {
      failover = awaitTakeOver(1, LeaderLoss.FROZEN, deposed, jobId, since, lostAt);
    } finally {
      LocalClusterProcesses.signal(leader, "-CONT");
    }
    System.out.println(name + ": " + failover.line());

    // then: woken, it refuses to settle the sinks of a job that is no longer its own
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> Files.readString(leaderLog).contains("is no longer this job manager's"));
    assertThat(Files.readString(leaderLog)).doesNotContain("settled");
    stopFeedingAfterNewOutput(committed());
    assertExactlyOnce(fed.get());
  }

  /**
   * Loses the leader as {@code loss} says and waits until a standby took over; a killed job manager
   * is replaced by a new one, a frozen one is woken and must stand by again.
   */
  private Failover loseLeader(int number, LeaderLoss loss, String jobId) throws Exception {
    LeaderInfo deposed = cluster.leader().orElseThrow();
    Process leader = cluster.leaderProcess();
    Path leaderLog = cluster.logOf(leader);
    long since = System.nanoTime();
    LocalTime lostAt = LocalTime.now();
    Failover failover;
    if (loss == LeaderLoss.KILLED) {
      LocalClusterProcesses.kill(leader);
      failover = awaitTakeOver(number, loss, deposed, jobId, since, lostAt);
      cluster.startJobManager();
    } else {
      boolean atMetadata = number == 1 && FREEZE_AT_METADATA;
      if (atMetadata) {
        awaitPausedAtMetadata(leaderLog);
        since = System.nanoTime();
        lostAt = LocalTime.now();
      }
      LocalClusterProcesses.signal(leader, "-STOP");
      long frozenAt = Files.size(leaderLog);
      try {
        failover = awaitTakeOver(number, loss, deposed, jobId, since, lostAt);
      } finally {
        LocalClusterProcesses.signal(leader, "-CONT");
      }
      if (atMetadata) {
        assertWokenLeaderCollidesWithNothing(leaderLog, frozenAt);
      }
      // then: woken, it finds itself deposed and stands by again
      String deposedLine = "Deposed from epoch " + deposed.epoch();
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                String log = Files.readString(leaderLog);
                int at = log.indexOf(deposedLine);
                return at >= 0 && log.indexOf("runs for leadership again", at) > at;
              });
      assertThat(leader.isAlive()).isTrue();
    }
    assertThat(Files.readString(cluster.leaderLog())).contains("Recovering job " + jobId);
    System.out.println(name + ": " + failover.line());
    return failover;
  }

  /** Waits until the leader pauses between its leadership check and a {@code _metadata} write. */
  private static void awaitPausedAtMetadata(Path leaderLog) throws Exception {
    long before = Files.size(leaderLog);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(20))
        .until(() -> Files.readString(leaderLog).indexOf(PAUSED_LINE, (int) before) >= 0);
  }

  /**
   * The leader frozen at {@code frozenAt} (its log's length) was deposed with a checkpoint past its
   * leadership check: its successor's checkpoints all have higher ids than that one, whether or not
   * the woken leader still wrote its {@code _metadata}.
   */
  private void assertWokenLeaderCollidesWithNothing(Path deposedLog, long frozenAt)
      throws Exception {
    String log = Files.readString(deposedLog);
    long lastBeforeFreeze = lastCompleted(log.substring(0, (int) frozenAt));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> Files.readString(deposedLog).contains("Deposed from epoch"));
    String woken = Files.readString(deposedLog).substring((int) frozenAt);
    long staleCompleted = lastCompleted(woken);
    List<Long> successors = completedIds(Files.readString(cluster.leaderLog()));
    System.out.println(
        name
            + ": frozen after checkpoint "
            + lastBeforeFreeze
            + " with the next past its leadership check; woken, it "
            + (staleCompleted > 0
                ? "completed checkpoint " + staleCompleted
                : "completed none (its files were pruned)")
            + "; its successor completed "
            + successors);
    long highestOfDeposed = Math.max(staleCompleted, lastBeforeFreeze + 1);
    assertThat(successors).isNotEmpty().allMatch(id -> id > highestOfDeposed);
  }

  private static List<Long> completedIds(String log) {
    List<Long> ids = new ArrayList<>();
    Matcher matcher = COMPLETED.matcher(log);
    while (matcher.find()) {
      ids.add(Long.parseLong(matcher.group(1)));
    }
    return ids;
  }

  /** The id of the last checkpoint the log says completed, or 0. */
  private static long lastCompleted(String log) {
    List<Long> ids = completedIds(log);
    return ids.isEmpty() ? 0 : ids.get(ids.size() - 1);
  }

  /**
   * Waits until a newer leader than {@code deposed} is named, runs the job again, and the job
   * committed output of its own (commits of the old leader's last notification, and of the restored
   * checkpoint's pending transactions by the new leader's recovery step, land before: only output
   * after the job runs again counts).
   */
  private Failover awaitTakeOver(
      int number, LeaderLoss loss, LeaderInfo deposed, String jobId, long since, LocalTime lostAt)
      throws Exception {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(50))
        .until(() -> cluster.leader().map(l -> l.epoch() > deposed.epoch()).orElse(false));
    long leadsMillis = millisSince(since);
    try (ClusterClient client = cluster.leaderClient()) {
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(100))
          .ignoreExceptions()
          .until(() -> client.job(jobId).state().equals("RUNNING"));
    }
    long runningMillis = millisSince(since);
    awaitOutputCommittedFromNowOn();
    long committedMillis = millisSince(since);
    String timeline =
        FailoverTimeline.of(Files.readString(cluster.leaderLog()), lostAt, committedMillis);
    return new Failover(number, loss, leadsMillis, runningMillis, committedMillis, timeline);
  }

  /**
   * Waits for a record committed after this moment: a {@code read_committed} reader placed at the
   * output's end now (the last stable offsets) polls until one arrives. It reads only what is new,
   * so the time measured is the commit's, not that of reading the whole topic again.
   */
  private void awaitOutputCommittedFromNowOn() {
    Properties properties = OutputVerifier.readerProperties(kafka.bootstrapServers(), true);
    try (KafkaConsumer<byte[], byte[]> reader = new KafkaConsumer<>(properties)) {
      List<TopicPartition> partitions =
          reader.partitionsFor(outputTopic()).stream()
              .map(info -> new TopicPartition(outputTopic(), info.partition()))
              .toList();
      reader.assign(partitions);
      reader.seekToEnd(partitions);
      // Positions are looked up lazily: fix them at this moment's end.
      partitions.forEach(reader::position);
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInSameThread()
          .pollInterval(Duration.ofMillis(1))
          .until(() -> !reader.poll(Duration.ofMillis(50)).isEmpty());
    }
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  /** {@code weir cluster status}: the leader, the standby, and both task managers. */
  private static void assertStatusLists(LeaderInfo leader, String url) {
    PrintStream originalOut = System.out;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exitCode;
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      exitCode = WeirCli.run("cluster", "status", "--ha", url);
    } finally {
      System.setOut(originalOut);
    }
    String status = out.toString(StandardCharsets.UTF_8);
    assertThat(exitCode).as(status).isZero();
    assertThat(status)
        .containsPattern(leader.address() + " +" + leader.pid() + " +leader")
        .contains("standby")
        // Two slots in use in all: one task manager's, or one of each (placement follows the
        // order in which they registered).
        .containsPattern(
            "tm-\\S+ +127.0.0.1:[0-9]+ +[0-9]+ +[0-2]/2\n+tm-\\S+ +127.0.0.1:[0-9]+ +[0-9]+ +[0-2]/2")
        .containsPattern("[12]/2");
  }

  /** Submits the seed job, starts the input and waits until output is committed. */
  private String submitAndAwaitCommits(AtomicLong fed) throws Exception {
    try (ClusterClient client = cluster.leaderClient()) {
      JobStatus job = client.submit(seedJob(2));
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 1);
      feed(fed, 2_000);
      await().atMost(Duration.ofSeconds(60)).until(() -> committed() > 0);
      long checkpoint = client.job(job.jobId()).lastCheckpointId();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.job(job.jobId()).lastCheckpointId() > checkpoint);
      return job.jobId();
    }
  }

  /** The processes' logs stay in the build directory, to read after a failure. */
  private Path logs() {
    return Path.of("target", "failover-logs", name).toAbsolutePath();
  }

  /** A fresh topic pair and a ZooKeeper root of its own for each test's cluster. */
  private String newCluster() throws Exception {
    name = "ha" + RUNS.incrementAndGet();
    Topics.create(kafka.bootstrapServers(), 4, inputTopic(), outputTopic());
    return zooKeeperUrl + "/" + name;
  }

  private CompletableFuture<Void> input;

  private void feed(AtomicLong fed, long rate) {
    SeedInput seedInput = new SeedInput(kafka.bootstrapServers(), inputTopic());
    input =
        CompletableFuture.runAsync(
            () -> {
              try {
                while (feeding.get()) {
                  seedInput.load(fed.get(), fed.get() + 1000, rate);
                  fed.addAndGet(1000);
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
  }

  private void stopFeedingAfterNewOutput(long committedBefore) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> committed() > committedBefore + 1_000);
    feeding.set(false);
    input.join();
  }

  /** Every id once, then a few more checkpoints watched for a late duplicate. */
  private void assertExactlyOnce(long records) {
    OutputVerifier output = new OutputVerifier(kafka.bootstrapServers(), outputTopic());
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> output.read(true).verify(0, records).lost() == 0);
    await()
        .during(Duration.ofMillis(4 * CHECKPOINT_INTERVAL_MILLIS))
        .atMost(Duration.ofSeconds(10))
        .until(() -> output.read(true).verify(0, records).duplicated() == 0);
    OutputVerifier.Verdict verdict = output.read(true).verify(0, records);
    System.out.println(name + ": " + verdict.line());
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
    assertThat(verdict.out()).isEqualTo(records);
  }

  private long committed() {
    return new OutputVerifier(kafka.bootstrapServers(), outputTopic()).read(true).records();
  }

  private String inputTopic() {
    return "foo-" + name;
  }

  private String outputTopic() {
    return "bar-" + name;
  }

  private JobSubmission seedJob(int parallelism) {
    return new JobSubmission(
        "io.weir.examples.SeedJob",
        List.of(
            "--bootstrap",
            kafka.bootstrapServers(),
            "--input-topic",
            inputTopic(),
            "--output-topic",
            outputTopic(),
            "--group",
            "group-" + name,
            "--transactional-id-prefix",
            "seed-" + name,
            "--checkpoint-interval",
            "" + CHECKPOINT_INTERVAL_MILLIS),
        parallelism,
        null,
        null,
        false);
  }
}

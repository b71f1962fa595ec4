package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.lab.OutputVerifier;
import io.weir.lab.SeedInput;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.failpoint.FailpointNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The seed job on a standalone cluster (a job manager and two task managers of two slots, each its
 * own process) against a real broker, with parallelism 2, so that each task manager runs one
 * subtask of the source and one of the keyed map and sink, and the keyBy crosses the network (or 4,
 * filling every slot). A {@code read_committed} reader of the output sees every input id exactly
 * once: after a plain run, after {@code kill -9} of a task manager, after a task manager halted
 * with a commit in flight, and after {@code kill -9} of the whole cluster and a resubmission. The
 * halted-commit cell runs on both transports (one JVM and processes), which share every class of
 * the execution path.
 */
class ClusterKafkaTest {
  private static final long CHECKPOINT_INTERVAL_MILLIS = 500;
  private static final AtomicInteger RUNS = new AtomicInteger();

  // A broker may take long to serve while the machine is busy; the tests poll, so wait for it.
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;
  private LocalClusterProcesses cluster;
  private String name;
  private final AtomicBoolean feeding = new AtomicBoolean(true);

  @AfterEach
  void stop() throws InterruptedException {
    feeding.set(false);
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void when_boundedInputOnTwoTaskManagers_then_everyRecordIsCommittedOnce() throws Exception {
    long records = 30_000;
    createTopics();
    new SeedInput(kafka.bootstrapServers(), inputTopic()).load(0, records, 0);
    cluster = new LocalClusterProcesses(directory, "").start();

    try (ClusterClient client = cluster.client()) {
      JobStatus job = client.submit(seedJob(2, "--bounded"));
      await().atMost(Duration.ofSeconds(60)).until(() -> client.job(job.jobId()).isTerminal());
      assertThat(client.job(job.jobId()).state()).isEqualTo("FINISHED");
    }

    // Each task manager ran one subtask of each of the two tasks.
    for (int number = 1; number <= LocalClusterProcesses.TASK_MANAGERS; number++) {
      assertThat(Files.readString(cluster.taskManagerLog(number)))
          .as("task manager %d", number)
          .contains("Deployed 2 subtasks of");
    }
    assertExactlyOnce(records);
  }

  /**
   * With parallelism 4 the job takes every slot, so after the kill it waits for a replacement task
   * manager.
   */
  @Test
  void when_taskManagerKilledWhileInputArrives_then_jobRecoversOnAReplacementExactlyOnce()
      throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    loseTaskManagerWhileInputArrives(
        4,
        job -> {
          // Liveness waits, generous for a loaded machine (a heartbeat missed under load restarts
          // the job before its first commit).
          await().atMost(Duration.ofSeconds(90)).until(() -> committed() > 0);
          LocalClusterProcesses.kill(cluster.taskManager(2));
          await()
              .atMost(Duration.ofSeconds(60))
              .until(() -> job.call().state().equals("RESTARTING"));
          cluster.startTaskManager();
        },
        job -> {});
  }

  /**
   * A task manager killed well after its subtasks started, their fences long ended, as its
   * heartbeats told the job manager: the next attempt deploys on the other task manager at once,
   * not after the lost one's lease and the fence's bound (which a lost task manager cost before).
   */
  @Test
  void when_taskManagerKilledLongAfterItsStart_then_theNextAttemptDeploysWithoutWaitingOutItsLease()
      throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    loseTaskManagerWhileInputArrives(
        2,
        job -> {
          await().atMost(Duration.ofSeconds(90)).until(() -> committed() > 0);
          // Both task managers said that their subtasks started with nothing beside the starts.
          await()
              .atMost(Duration.ofSeconds(90))
              .until(
                  () ->
                      Files.readString(cluster.jobManagerLog())
                              .split("with nothing running beside its starts", -1)
                              .length
                          > LocalClusterProcesses.TASK_MANAGERS);
          LocalClusterProcesses.kill(cluster.taskManager(2));
          long killed = System.nanoTime();
          // Well before the lease (the heartbeat timeout) and the fence bound passed.
          await()
              .atMost(Duration.ofSeconds(15))
              .pollInterval(Duration.ofMillis(100))
              .until(
                  () ->
                      Files.readString(cluster.taskManagerLog(1))
                          .contains("Deployed 4 subtasks of"));
          System.out.printf(
              "%s: next attempt deployed %d ms after the kill%n",
              name, (System.nanoTime() - killed) / 1_000_000);
        },
        job -> {});
  }

  /** How the job manager and the task managers of a run talk: one JVM, or processes. */
  enum Transport {
    /** {@code weir run}: the job manager and one task manager in one process, calls in memory. */
    IN_PROCESS,
    /** A job manager and two task managers, each its own process, over the network. */
    CLUSTER
  }

  /**
   * The seed's dangerous cell on both transports, through the same job driver, attempt and task
   * side: a process running sink subtasks halts (as {@code kill -9}) right after a checkpoint
   * completed, before its sink commits the checkpoint's transaction, input arriving. In one JVM the
   * restarted {@code weir run} resumes from the latest checkpoint; on the cluster the job manager
   * restores on the other task manager. Either way the recovery commits the transaction of the dead
   * process, and every input id is committed once.
   */
  @ParameterizedTest
  @EnumSource(Transport.class)
  void when_haltedBeforeItsSinkCommits_then_theTransactionIsCommittedOnRecovery(Transport transport)
      throws Exception {
    String failpoint = FailpointNames.SINK_COMMIT_BEFORE;
    if (transport == Transport.IN_PROCESS) {
      haltInProcessAndRestart(failpoint + "=halt@6");
      return;
    }
    cluster = new LocalClusterProcesses(directory, "").withFailpoints(2, failpoint + "=halt@6");
    cluster.start();
    loseTaskManagerWhileInputArrives(
        2,
        job -> {
          Process second = cluster.taskManager(2);
          await().atMost(Duration.ofSeconds(30)).until(() -> !second.isAlive());
          assertThat(Files.readString(cluster.taskManagerLog(2)))
              .contains("failpoint " + failpoint + " hit");
        },
        job -> {
          // The job manager's REST API: the recovery's outcomes, and the running subtasks'
          // figures and transactions carried by the surviving task manager's heartbeats.
          DashboardApi api = DashboardApi.printedIn(cluster.jobManagerLog());
          String jobId = job.call().jobId();
          // New output may come from the surviving subtasks' own commits before the new attempt
          // has settled the sinks and started: wait for its view.
          await()
              .atMost(Duration.ofSeconds(60))
              .untilAsserted(() -> api.assertRecoveryCommittedTheHaltedTransaction(jobId));
          await()
              .atMost(Duration.ofSeconds(30))
              .untilAsserted(() -> api.assertEverySubtaskAndSinkTransactionShown(jobId, 2));
        });
  }

  /**
   * Runs the seed job with {@code weir run} (parallelism 2) until it halts at {@code failpoints}
   * with input arriving, then resumes it in a new process from its latest checkpoint.
   */
  private void haltInProcessAndRestart(String failpoints) throws Exception {
    createTopics();
    AtomicLong fed = new AtomicLong();
    CompletableFuture<Void> input;
    long committedAtHalt;
    try (JobProcess first = runInProcess(failpoints, 1)) {
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> !first.isAlive() || hasCheckpoint(directory.resolve("checkpoints")));
      input = feed(fed, 2_000);
      await().atMost(Duration.ofSeconds(60)).until(() -> !first.isAlive());
      assertThat(Files.readString(first.log())).contains("failpoint " + failpoints.split("=")[0]);
      committedAtHalt = committed();
    }
    try (JobProcess second = runInProcess(null, 2)) {
      // A new JVM starts, settles the pending transactions and restores: generous on a busy
      // machine.
      try {
        await()
            .atMost(Duration.ofMinutes(3))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> !second.isAlive() || committed() > committedAtHalt);
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError("No new output, see " + Files.readString(second.log()), e);
      }
      assertThat(second.isAlive()).as("restarted job alive: %s", second.log()).isTrue();
      stopFeedingAfterNewOutput(input, committedAtHalt);
      assertExactlyOnce(fed.get());
      assertThat(second.isAlive()).as("restarted job alive, see %s", second.log()).isTrue();
      DashboardApi.printedIn(second.log()).assertRecoveryCommittedTheHaltedTransaction("local-1");
    }
  }

  private JobProcess runInProcess(String failpoints, int number) throws Exception {
    List<String> args =
        new ArrayList<>(
            List.of("-p", "2", "--checkpoint-dir", directory.resolve("checkpoints").toString()));
    JobSubmission job = seedJob(2);
    args.add(job.jobClass());
    args.addAll(job.args());
    return JobProcess.start(args, failpoints, directory.resolve("run-" + number + ".log"));
  }

  private static boolean hasCheckpoint(Path checkpoints) throws Exception {
    if (!Files.isDirectory(checkpoints)) {
      return false;
    }
    try (var files = Files.walk(checkpoints, 2)) {
      return files.anyMatch(path -> path.getFileName().toString().startsWith("chk-"));
    }
  }

  /**
   * A frozen task manager is lost once its heartbeats stop, and the job recovers on the other one;
   * when it wakes up its tasks go on for a moment with the transactional ids the recovered job
   * uses: they are fenced, and their records never become visible.
   */
  @Test
  void when_frozenTaskManagerWakesAfterRecovery_then_itsTransactionsAreFenced() throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    Process second = cluster.taskManager(2);
    try {
      loseTaskManagerWhileInputArrives(
          2,
          job -> {
            await().atMost(Duration.ofSeconds(30)).until(() -> committed() > 0);
            LocalClusterProcesses.signal(second, "-STOP");
          },
          job -> {
            // The recovered job runs on the first task manager and commits.
            await()
                .atMost(Duration.ofSeconds(30))
                .until(
                    () ->
                        Files.readString(cluster.taskManagerLog(1))
                            .contains("Deployed 4 subtasks of"));
            long committedBeforeWaking = committed();
            await()
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> committed() > committedBeforeWaking);
            LocalClusterProcesses.signal(second, "-CONT");
            await()
                .atMost(Duration.ofSeconds(30))
                .until(
                    () ->
                        Files.readString(cluster.taskManagerLog(2))
                            .contains("Lost the job manager"));
          });
    } finally {
      LocalClusterProcesses.signal(second, "-CONT");
    }
  }

  private interface Step {
    void run(Callable<JobStatus> job) throws Exception;
  }

  /**
   * Runs the seed job with input arriving, loses the second task manager by {@code loss}, and
   * checks that the job recovers and commits every record once; {@code afterRecovery} runs once the
   * recovered job committed new output, with input still arriving.
   */
  private void loseTaskManagerWhileInputArrives(int parallelism, Step loss, Step afterRecovery)
      throws Exception {
    createTopics();
    AtomicLong fed = new AtomicLong();
    try (ClusterClient client = cluster.client()) {
      JobStatus job = client.submit(seedJob(parallelism));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 1);
      CompletableFuture<Void> input = feed(fed, 2_000);

      loss.run(() -> client.job(job.jobId()));
      long lost = System.nanoTime();
      long committedAtLoss = committed();

      await().atMost(Duration.ofSeconds(30)).until(() -> client.job(job.jobId()).restarts() >= 1);
      // A lost task manager whose heartbeats did not say its subtasks started with nothing beside
      // the starts holds the next attempt back until its lease and the fence bound passed.
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> committed() > committedAtLoss);
      System.out.printf(
          "%s: first new committed output %d ms after the loss%n",
          name, (System.nanoTime() - lost) / 1_000_000);
      afterRecovery.run(() -> client.job(job.jobId()));
      stopFeedingAfterNewOutput(input, committedAtLoss);
      assertExactlyOnce(fed.get());
      assertThat(client.job(job.jobId()).state()).isEqualTo("RUNNING");
      // The surviving task manager cancelled its tasks without errors.
      assertThat(Files.readString(cluster.taskManagerLog(1))).doesNotContain("ERROR");
    }
  }

  @Test
  void when_wholeClusterKilledAndJobResubmitted_then_itResumesFromItsCheckpointExactlyOnce()
      throws Exception {
    createTopics();
    cluster = new LocalClusterProcesses(directory, "").start();
    AtomicLong fed = new AtomicLong();
    CompletableFuture<Void> input;
    try (ClusterClient client = cluster.client()) {
      JobStatus job = client.submit(seedJob(2));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 1);
      input = feed(fed, 2_000);
      await().atMost(Duration.ofSeconds(30)).until(() -> committed() > 0);
      long checkpoint = client.job(job.jobId()).lastCheckpointId();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.job(job.jobId()).lastCheckpointId() > checkpoint);
    }

    cluster.killAll();
    long committedAtKill = committed();
    cluster.start();

    try (ClusterClient client = cluster.client()) {
      JobStatus resumed = client.submit(seedJob(2));
      assertThat(resumed.message()).startsWith("resuming from its latest completed checkpoint");
      stopFeedingAfterNewOutput(input, committedAtKill);
      assertExactlyOnce(fed.get());
      assertThat(client.job(resumed.jobId()).state()).isEqualTo("RUNNING");
    }
  }

  @Test
  void when_aRecordFailsTheJobThreeTimes_then_theJobFailsNamingTheRecord() throws Exception {
    // given: an empty value, which the seed job's key selector rejects, at offset 0 of partition 0
    createTopics();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      producer.send(new ProducerRecord<>(inputTopic(), 0, "key", "")).get();
    }
    cluster = new LocalClusterProcesses(directory, "").start();

    // when
    try (ClusterClient client = cluster.client()) {
      JobStatus job = client.submit(seedJob(2));
      // Three attempts, each deployed on both task managers: minutes on a busy machine.
      try {
        await()
            .atMost(Duration.ofMinutes(5))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> client.job(job.jobId()).isTerminal());
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError("The job did not end: " + client.job(job.jobId()), e);
      }

      // then: the job manager saw the same record fail three attempts and stopped restarting
      JobStatus ended = client.job(job.jobId());
      assertThat(ended.state()).isEqualTo("FAILED");
      assertThat(ended.message())
          .contains(
              "the record of "
                  + inputTopic()
                  + "-0 at offset 0 (value \"\") failed the job 3 times in a row");
      // Two restarts between the three failing attempts; an attempt lost for another reason on a
      // loaded machine (a task manager's heartbeat missed) adds one more.
      assertThat(ended.restarts()).isGreaterThanOrEqualTo(2);
    }
  }

  /**
   * {@code weir cancel --savepoint} and {@code weir stop --savepoint} while input arrives: each
   * answers once the job ended with nothing pending (the committed output, the uncommitted output
   * and the group's offsets agree), and a plain resubmission resumes from the savepoint.
   */
  @Test
  void when_cancelledThenStoppedWithSavepoints_then_nothingIsPendingAndResubmitsResumeFromThem()
      throws Exception {
    createTopics();
    cluster = new LocalClusterProcesses(directory, "").start();
    AtomicLong fed = new AtomicLong();
    try (ClusterClient client = cluster.client()) {
      // given: the seed job with input arriving (generous waits: the machine may be shared)
      JobStatus job = client.submit(seedJob(2));
      await()
          .atMost(Duration.ofMinutes(3))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 1);
      CompletableFuture<Void> input = feed(fed, 2_000);
      await().atMost(Duration.ofMinutes(2)).until(() -> committed() > 1_000);

      // when: cancelled with a savepoint, then: it ended with nothing pending
      String cancelled = client.cancel(job.jobId(), directory.resolve("cancelled").toString());
      assertThat(client.job(job.jobId()).state()).isEqualTo("CANCELED");
      assertNothingPending();

      // when: resubmitted without -s, then: it resumes from that savepoint
      JobStatus resumed = client.submit(seedJob(2));
      assertThat(resumed.message()).startsWith("resuming from savepoint " + cancelled);
      long committedAtResume = committed();
      await().atMost(Duration.ofMinutes(2)).until(() -> committed() > committedAtResume + 1_000);

      // when: stopped with a savepoint, then: it finished with nothing pending
      String stopped =
          client.stopWithSavepoint(resumed.jobId(), directory.resolve("stopped").toString());
      assertThat(client.job(resumed.jobId()).state()).isEqualTo("FINISHED");
      assertNothingPending();

      // when: the rest of the input is read by a plain resubmission, then: exactly once
      feeding.set(false);
      input.join();
      JobStatus last = client.submit(seedJob(2, "--bounded"));
      assertThat(last.message()).startsWith("resuming from savepoint " + stopped);
      await().atMost(Duration.ofMinutes(2)).until(() -> client.job(last.jobId()).isTerminal());
      assertExactlyOnce(fed.get());
    }
  }

  /**
   * Right after the job ended: every record it read is committed, and no transaction of its sink is
   * open. (Records of transactions aborted by a failover stay visible to read_uncommitted readers,
   * so those are no measure of what is pending.)
   */
  private void assertNothingPending() throws Exception {
    OutputVerifier output = new OutputVerifier(kafka.bootstrapServers(), outputTopic());
    OutputVerifier.Reading committed = output.read(true);
    assertThat(committed.records())
        .isEqualTo(Topics.committedOffsets(kafka.bootstrapServers(), group()));
    assertThat(committed.counts().values()).containsOnly(1);
    try (LingeringTransactions transactions =
        new LingeringTransactions(
            Map.<String, Object>of("bootstrap.servers", kafka.bootstrapServers()))) {
      assertThat(transactions.list("seed-" + name)).isEmpty();
    }
  }

  /**
   * The job manager halts after checkpoint 3 completed and before any sink was notified, input
   * arriving, so that both sink subtasks' transactions of checkpoint 3 are pending; resubmitted
   * with parallelism 4, the job manager settles them before it deploys the four new subtasks.
   */
  @Test
  void
      when_jobManagerHaltsBeforeNotifyAndJobResumesWithMoreSubtasks_then_everyRecordIsCommittedOnce()
          throws Exception {
    createTopics();
    cluster =
        new LocalClusterProcesses(directory, "")
            .withJobManagerFailpoints(FailpointNames.COORDINATOR_NOTIFY_BEFORE + "=halt@3");
    cluster.start();
    AtomicLong fed = new AtomicLong();
    try (ClusterClient client = cluster.client()) {
      JobStatus job = client.submit(seedJob(2));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 1);
      CompletableFuture<Void> input = feed(fed, 2_000);
      Process jobManager = cluster.jobManager();
      await().atMost(Duration.ofSeconds(60)).until(() -> !jobManager.isAlive());
      feeding.set(false);
      input.join();
    }
    assertThat(Files.readString(cluster.jobManagerLog()))
        .contains("failpoint " + FailpointNames.COORDINATOR_NOTIFY_BEFORE + " hit");

    cluster.killAll();
    cluster.start();
    try (ClusterClient client = cluster.client()) {
      JobStatus resumed = client.submit(seedJob(4, "--bounded"));
      await().atMost(Duration.ofSeconds(90)).until(() -> client.job(resumed.jobId()).isTerminal());
      assertThat(client.job(resumed.jobId()).state())
          .as(client.job(resumed.jobId()).message())
          .isEqualTo("FINISHED");
    }
    assertExactlyOnce(fed.get());
    assertThat(Files.readString(cluster.jobManagerLog()))
        .contains("settled")
        .doesNotContain("DATA LOSS")
        .doesNotContain("outcome");
  }

  /** Feeds records from 0 in chunks until told to stop, at about {@code rate} records/s. */
  private CompletableFuture<Void> feed(AtomicLong fed, long rate) {
    SeedInput input = new SeedInput(kafka.bootstrapServers(), inputTopic());
    return CompletableFuture.runAsync(
        () -> {
          try {
            while (feeding.get()) {
              // Chunks of 1000: the loader keeps to the rate once per thousand records.
              input.load(fed.get(), fed.get() + 1000, rate);
              fed.addAndGet(1000);
            }
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
  }

  /**
   * Keeps the input arriving until the recovered job committed output of its own (so that it
   * resumed while records were in flight), then stops it.
   */
  private void stopFeedingAfterNewOutput(CompletableFuture<Void> input, long committedAtLoss) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> committed() > committedAtLoss + 1_000);
    feeding.set(false);
    input.join();
  }

  /**
   * Waits until every id of {@code 0 .. records-1} was committed, then watches a few more
   * checkpoints for late duplicates.
   */
  private void assertExactlyOnce(long records) {
    OutputVerifier output = new OutputVerifier(kafka.bootstrapServers(), outputTopic());
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> output.read(true).verify(0, records).lost() == 0);
    await()
        .during(Duration.ofMillis(3 * CHECKPOINT_INTERVAL_MILLIS))
        .atMost(Duration.ofSeconds(10))
        .until(() -> output.read(true).verify(0, records).duplicated() == 0);
    OutputVerifier.Verdict verdict = output.read(true).verify(0, records);
    System.out.println(name + ": " + verdict.line());
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
    assertThat(verdict.out()).isEqualTo(records);
    // The seed's monitor 3: both source subtasks commit their partitions' offsets on notify.
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> Topics.committedOffsets(kafka.bootstrapServers(), group()) == records);
  }

  private long committed() {
    return new OutputVerifier(kafka.bootstrapServers(), outputTopic()).read(true).records();
  }

  private void createTopics() throws Exception {
    name = "cluster" + RUNS.incrementAndGet();
    Topics.create(kafka.bootstrapServers(), 4, inputTopic(), outputTopic());
  }

  private String inputTopic() {
    return "foo-" + name;
  }

  private String group() {
    return "group-" + name;
  }

  private String outputTopic() {
    return "bar-" + name;
  }

  private JobSubmission seedJob(int parallelism, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--bootstrap",
                kafka.bootstrapServers(),
                "--input-topic",
                inputTopic(),
                "--output-topic",
                outputTopic(),
                "--group",
                group(),
                "--transactional-id-prefix",
                "seed-" + name,
                "--checkpoint-interval",
                "" + CHECKPOINT_INTERVAL_MILLIS));
    args.addAll(List.of(extra));
    return new JobSubmission("io.weir.examples.SeedJob", args, parallelism, null, null, false);
  }
}

package io.weir.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.sink.TransactionView;
import io.weir.cluster.jobmanager.JobManager;
import io.weir.cluster.jobmanager.JobManagerOptions;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.monitor.CheckpointTimeline;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job manager and two task managers in this JVM, talking over the network. */
class InProcessClusterTest {
  @TempDir Path directory;

  @Test
  void when_jobRunsOnTwoTaskManagers_then_everyIdIsCommittedOnce() throws Exception {
    Path output = directory.resolve("out");
    try (JobManager jobManager = startJobManager();
        TaskManager first = TaskManager.start(taskManager(jobManager));
        TaskManager second = TaskManager.start(taskManager(jobManager));
        ClusterClient client =
            new ClusterClient(new HostAndPort("127.0.0.1", jobManager.port()), "")) {
      JobStatus submitted = client.submit(keyedCount(output.toString(), "4000", "1000"));

      // Heartbeats carry the record counts that 'weir run' prints while it waits.
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.job(submitted.jobId()).recordsIn() > 0);
      // The same heartbeats carry each subtask's figures to the job manager's REST API.
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertEverySubtaskReported(jobManager, submitted.jobId()));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(submitted.jobId()).isTerminal());

      assertThat(client.job(submitted.jobId()).state()).isEqualTo("FINISHED");
      // The heartbeats also carried the subtasks' checkpoint traces: a completed checkpoint's
      // timeline has every subtask's barrier and the file sink's commits, as a local run's has.
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(() -> assertSomeCheckpointFullyTraced(jobManager, submitted.jobId()));
      assertThat(client.job(submitted.jobId()).recordsIn()).isBetween(1L, 4000L);
      Map<String, Integer> counts = CommittedOutput.lineCounts(output);
      assertThat(counts).hasSize(4000);
      assertThat(counts.values()).containsOnly(1);

      // weir checkpoints: every subtask's acknowledgement of every completed checkpoint
      List<String> history = client.checkpoints(submitted.jobId());
      assertThat(history.get(0)).startsWith("id\tstatus\tstarted\tduration_ms");
      List<String[]> completed =
          history.stream()
              .map(line -> line.split("\t"))
              .filter(fields -> fields[1].equals("COMPLETED"))
              .toList();
      assertThat(completed).isNotEmpty();
      for (String[] fields : completed) {
        assertThat(Long.parseLong(fields[3])).isNotNegative();
        assertThat(fields[5].split(", "))
            .hasSize(4)
            .anyMatch(ack -> ack.startsWith("Source: Ids#1 "))
            .anyMatch(ack -> ack.startsWith("Map -> Sink: Files#0 "));
      }
    }
  }

  @Test
  void when_taskManagerLostAndTheJobAllowsNoRestart_then_theJobFailsNamingItsStrategy()
      throws Exception {
    Path output = directory.resolve("out");
    try (JobManager jobManager = startJobManager();
        TaskManager first = TaskManager.start(taskManager(jobManager));
        TaskManager second = TaskManager.start(taskManager(jobManager));
        ClusterClient client =
            new ClusterClient(new HostAndPort("127.0.0.1", jobManager.port()), "")) {
      JobStatus submitted = client.submit(keyedCount(output.toString(), "100000", "500", "0"));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.job(submitted.jobId()).state().equals("RUNNING"));

      second.close();

      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> client.job(submitted.jobId()).isTerminal());
      JobStatus failed = client.job(submitted.jobId());
      assertThat(failed.state()).isEqualTo("FAILED");
      assertThat(failed.restarts()).isZero();
      assertThat(failed.message())
          .startsWith("fixed-delay restart strategy gave up after 0 attempts: ");
    }
  }

  @Test
  void when_theFirstOutputComesAfterTheFirstCheckpoint_then_itIsCommittedWithoutWaitingAnInterval()
      throws Exception {
    Path output = directory.resolve("out");
    try (JobManager jobManager = startJobManager();
        TaskManager taskManager = TaskManager.start(taskManager(jobManager));
        ClusterClient client =
            new ClusterClient(new HostAndPort("127.0.0.1", jobManager.port()), "")) {
      // given: a job checkpointing every ten minutes whose source emits once checkpoint 1 completed
      JobStatus submitted =
          client.submit(
              new JobSubmission(
                  FirstOutputJob.class.getName(),
                  List.of(output.toString()),
                  null,
                  null,
                  null,
                  false));

      // when: its sink receives its first record, on the task manager
      // then: the task manager tells the job manager, which checkpoints at once and the sink
      // commits every id long before the interval
      try {
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> CommittedOutput.lineCounts(output).size() == FirstOutputJob.RECORDS);
        assertThat(CommittedOutput.lineCounts(output).values()).containsOnly(1);
      } finally {
        client.cancel(submitted.jobId(), null);
      }
    }
  }

  /** What {@code GET /api/v1/jobs/{id}} shows: both tasks, every subtask with its records. */
  private static void assertEverySubtaskReported(JobManager jobManager, String jobId) {
    JobDetail job = jobManager.monitor().job(jobId).orElseThrow();
    assertThat(job.tasks()).hasSize(2);
    for (TaskView task : job.tasks()) {
      assertThat(task.subtasks()).hasSize(task.parallelism());
      for (SubtaskView subtask : task.subtasks()) {
        assertThat(subtask.blockedOnOutputMillis()).isNotNegative();
        assertThat(subtask.operators()).hasSize(task.operators().size());
      }
    }
    List<SubtaskView> sources = job.tasks().get(0).subtasks();
    List<SubtaskView> sinks = job.tasks().get(1).subtasks();
    assertThat(sources.stream().mapToLong(SubtaskView::recordsOut).sum()).isPositive();
    assertThat(sinks.stream().mapToLong(SubtaskView::recordsIn).sum()).isPositive();
    assertThat(sinks.stream().mapToLong(SubtaskView::recordsOut).sum()).isPositive();
    // The file sink's transactions: each running sink subtask writes into an open one.
    for (SubtaskView sink : sinks) {
      assertThat(sink.operators().get(1).transactions())
          .anyMatch(transaction -> transaction.stage() == TransactionView.Stage.OPEN);
    }
    // The gauge the map's function added, read on the task managers: the ids each subtask labelled.
    assertThat(
            sinks.stream()
                .mapToDouble(sink -> sink.operators().get(0).gauges().get("ids_labelled"))
                .sum())
        .isPositive();
  }

  private static void assertSomeCheckpointFullyTraced(JobManager jobManager, String jobId) {
    List<CheckpointTimeline> checkpoints = jobManager.monitor().checkpoints(jobId).orElseThrow();
    assertThat(checkpoints)
        .anySatisfy(
            checkpoint -> {
              assertThat(checkpoint.status()).isEqualTo("COMPLETED");
              assertThat(checkpoint.subtasks()).hasSize(4);
              for (CheckpointTimeline.SubtaskStep step : checkpoint.subtasks()) {
                assertThat(step.barrierMillis())
                    .isBetween(checkpoint.triggerMillis(), step.ackMillis());
                assertThat(step.notifications()).isNotEmpty();
              }
              assertThat(checkpoint.subtasks().get(2).notifications().get(0).outcome())
                  .isEqualTo("COMMITTED");
            });
  }

  @Test
  void when_submittedWithTheRocksDbBackend_then_theTaskManagersKeepKeyedStateInIt()
      throws Exception {
    Path output = directory.resolve("out");
    try (JobManager jobManager = startJobManager();
        TaskManager first = TaskManager.start(taskManager(jobManager));
        TaskManager second = TaskManager.start(taskManager(jobManager));
        ClusterClient client =
            new ClusterClient(new HostAndPort("127.0.0.1", jobManager.port()), "")) {
      // given: a job whose code leaves the heap backend as it is
      JobSubmission submission =
          new JobSubmission(
              KeyedCountJob.class.getName(),
              List.of(output.toString(), "2000", "1000"),
              null,
              null,
              null,
              false,
              null,
              false,
              false,
              "rocksdb");

      // when: submitted as 'weir run --state-backend rocksdb' submits it
      JobStatus submitted = client.submit(submission);
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(submitted.jobId()).isTerminal());

      // then: the checkpoints hold RocksDB's files, shared between checkpoints
      assertThat(client.job(submitted.jobId()).state()).isEqualTo("FINISHED");
      assertThat(CommittedOutput.lineCounts(output)).hasSize(2000);
      Path shared =
          CheckpointLayout.sharedDirectory(directory.resolve("checkpoints").resolve("keyed-count"));
      try (Stream<Path> files = Files.list(shared)) {
        assertThat(files.map(file -> file.getFileName().toString()))
            .anyMatch(name -> name.contains("MANIFEST"));
      }
    }
  }

  @Test
  void when_recordsThatAreNotSerializableDeclareASerializer_then_theyCrossTaskManagersExactlyOnce()
      throws Exception {
    Path output = directory.resolve("out");

    JobStatus ended = runReadings(output, "declared");

    assertThat(ended.state()).isEqualTo("FINISHED");
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(3000).containsKeys("id-0", "id-2999");
    assertThat(counts.values()).containsOnly(1);
  }

  @Test
  void when_recordsDeclareTheirRecordClass_then_theyCrossTaskManagersExactlyOnceWithoutJava()
      throws Exception {
    Path output = directory.resolve("out");

    JobStatus ended = runReadings(output, "typed");

    assertThat(ended.state()).isEqualTo("FINISHED");
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(3000).containsKeys("id-0", "id-2999");
    assertThat(counts.values()).containsOnly(1);
  }

  @Test
  void
      when_recordsDeclareAClassWithoutSerializer_then_theSubmissionIsRefusedNamingTypeAndOperator() {
    assertThatThrownBy(() -> runReadings(directory.resolve("out"), "returns"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "The records of operator 'Readings' cannot be serialized: type "
                + ReadingsJob.Reading.class.getName()
                + " has no serializer: it has no public no-argument constructor; make it a record"
                + " or a POJO, or allow Java serialization for it");
  }

  @Test
  void when_recordsThatAreNotSerializableDeclareNoSerializer_then_theJobFailsNamingTheirClass()
      throws Exception {
    JobStatus failed = runReadings(directory.resolve("out"), "java");

    assertThat(failed.state()).isEqualTo("FAILED");
    assertThat(failed.message())
        .contains("Cannot serialize a batch")
        .contains(ReadingsJob.Reading.class.getName());
  }

  @Test
  void when_aDeclaredSerializerCannotReadARecord_then_theJobFailsWithItsErrorInsteadOfStalling()
      throws Exception {
    JobStatus failed = runReadings(directory.resolve("out"), "one-way");

    assertThat(failed.state()).isEqualTo("FAILED");
    assertThat(failed.message())
        .contains("Cannot decode a batch")
        .contains("this serializer cannot read readings");
  }

  @Test
  void when_aDeclaredSerializerLacksAClass_then_theJobFailsNamingItInsteadOfStalling()
      throws Exception {
    JobStatus failed = runReadings(directory.resolve("out"), "missing-class");

    assertThat(failed.state()).isEqualTo("FAILED");
    assertThat(failed.message())
        .contains("Cannot decode a batch")
        .contains("NoClassDefFoundError: com/example/readings/Calibration");
  }

  /**
   * Runs {@link ReadingsJob} on a job manager and two task managers, so that its readings cross
   * task managers, until it ends; its final status.
   */
  private JobStatus runReadings(Path output, String serializer) throws Exception {
    try (JobManager jobManager = startJobManager();
        TaskManager first = TaskManager.start(taskManager(jobManager));
        TaskManager second = TaskManager.start(taskManager(jobManager));
        ClusterClient client =
            new ClusterClient(new HostAndPort("127.0.0.1", jobManager.port()), "")) {
      JobStatus submitted =
          client.submit(
              new JobSubmission(
                  ReadingsJob.class.getName(),
                  List.of(output.toString(), "3000", "1000", serializer),
                  null,
                  null,
                  null,
                  false));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(submitted.jobId()).isTerminal());
      return client.job(submitted.jobId());
    }
  }

  private JobManager startJobManager() throws Exception {
    return JobManager.start(
        new JobManagerOptions(
            "127.0.0.1", 0, "", Duration.ofSeconds(3), directory.resolve("checkpoints")));
  }

  private static JobSubmission keyedCount(String... args) {
    return new JobSubmission(KeyedCountJob.class.getName(), List.of(args), null, null, null, false);
  }

  private static TaskManagerOptions taskManager(JobManager jobManager) {
    return new TaskManagerOptions(
        new HostAndPort("127.0.0.1", jobManager.port()),
        1,
        "127.0.0.1",
        "",
        Duration.ofMillis(300));
  }
}

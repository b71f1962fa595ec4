package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.CommittedOutput;
import io.weir.cluster.PaymentsJob;
import io.weir.cluster.SlowKeyedCountJob;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.exchange.InFlightRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unaligned checkpoints on a job manager and two task managers, each its own process: a keyed
 * running count whose sink is slower than its input, so that records queue in front of the count
 * across the network, and a two-input job on RocksDB state. Checkpoints complete with those records
 * stored in flight; a task manager killed with SIGKILL after such a checkpoint loses and doubles
 * nothing.
 */
class UnalignedClusterKillTest {
  private static final int RECORDS = 20_000;
  private static final int RATE_PER_SOURCE = 3_000;
  private static final int ORDERS = 8_000;
  // A third of the input's rate: each of the two counts takes a record per millisecond.
  private static final int SLOWED_MICROS = 1_000;

  @TempDir Path directory;
  private LocalClusterProcesses cluster;
  private int submissions;

  @AfterEach
  void killAll() throws InterruptedException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void when_taskManagerKilledAfterACheckpointWithRecordsInFlight_then_eachIdIsCountedOnce()
      throws Exception {
    // given: the job submitted with --unaligned, its sink a third as fast as its input
    cluster = new LocalClusterProcesses(directory, "").start();
    submit(List.of());
    try (ClusterClient client = cluster.client()) {
      String jobId = client.list().get(0).jobId();

      // when: a completed checkpoint stored records in flight, a task manager is killed
      awaitCheckpointWithRecordsInFlight(client, jobId);
      LocalClusterProcesses.kill(cluster.taskManager(2));

      // then
      JobStatus finished = awaitFinished(client, jobId);
      assertThat(finished.restarts()).isGreaterThanOrEqualTo(1);
    }
    assertEachIdCountedOnce(output());
  }

  @Test
  void when_wholeClusterKilledAndJobResumedAtAnotherParallelism_then_eachIdIsCountedOnce()
      throws Exception {
    // given
    cluster = new LocalClusterProcesses(directory, "").start();
    submit(List.of());
    try (ClusterClient client = cluster.client()) {
      awaitCheckpointWithRecordsInFlight(client, client.list().get(0).jobId());
    }

    // when: every process is killed, and the job resumed from its latest checkpoint on three
    // subtasks instead of two: each replays the records in flight of its new key groups
    cluster.killAll();
    cluster.start();
    submit(List.of("-p", "3"));

    // then: a fresh start would write the ids committed before the kill again
    try (ClusterClient client = cluster.client()) {
      awaitFinished(client, client.list().get(0).jobId());
    }
    assertEachIdCountedOnce(output());
  }

  @Test
  void when_twoInputJobOnRocksDbLosesATaskManager_then_everyOrderIsPaidOnce() throws Exception {
    // given: orders and payments matched in RocksDB state, the sink a third as fast as the input
    cluster = new LocalClusterProcesses(directory, "").start();
    submit(List.of("--state-backend", "rocksdb"), PaymentsJob.class, ORDERS, RATE_PER_SOURCE / 2);
    try (ClusterClient client = cluster.client()) {
      String jobId = client.list().get(0).jobId();

      // when
      awaitCheckpointWithRecordsInFlight(client, jobId, "match");
      LocalClusterProcesses.kill(cluster.taskManager(2));

      // then
      assertThat(awaitFinished(client, jobId).restarts()).isGreaterThanOrEqualTo(1);
    }
    Map<String, Integer> counts = CommittedOutput.lineCounts(output());
    assertThat(counts).hasSize(ORDERS).containsKeys("paid 0", "paid " + (ORDERS - 1));
    assertThat(counts.values()).containsOnly(1);
  }

  private Path output() {
    return directory.resolve("out");
  }

  /** Submits the keyed count with {@code options} of {@code weir run}. */
  private void submit(List<String> options) throws Exception {
    submit(options, SlowKeyedCountJob.class, RECORDS, RATE_PER_SOURCE);
  }

  /**
   * {@code weir run --jobmanager ADDRESS --unaligned --detached <options> <job> <output> <records>
   * <rate> <slowed micros>}.
   */
  private void submit(List<String> options, Class<?> job, int records, int rate) throws Exception {
    List<String> arguments =
        new ArrayList<>(
            List.of("run", "--jobmanager", "127.0.0.1:" + cluster.port(), "--unaligned"));
    arguments.add("--detached");
    arguments.addAll(options);
    arguments.addAll(
        List.of(job.getName(), output().toString(), "" + records, "" + rate, "" + SLOWED_MICROS));
    JobProcess.runCommand(
        arguments, directory.resolve("submit-" + ++submissions + ".log"), Duration.ofSeconds(120));
  }

  private static void awaitCheckpointWithRecordsInFlight(ClusterClient client, String jobId) {
    awaitCheckpointWithRecordsInFlight(client, jobId, "count");
  }

  private static void awaitCheckpointWithRecordsInFlight(
      ClusterClient client, String jobId, String operatorUid) {
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(50))
        // a checkpoint subsumed while it is read: the next poll reads the newer one
        .ignoreExceptions()
        .until(() -> lastCheckpointHoldsRecordsInFlight(client.job(jobId), operatorUid));
  }

  private static JobStatus awaitFinished(ClusterClient client, String jobId) throws Exception {
    await().atMost(Duration.ofSeconds(180)).until(() -> client.job(jobId).isTerminal());
    JobStatus finished = client.job(jobId);
    assertThat(finished.state()).as(finished.message()).isEqualTo("FINISHED");
    return finished;
  }

  private static boolean lastCheckpointHoldsRecordsInFlight(JobStatus job, String operatorUid)
      throws Exception {
    if (job.lastCheckpointPath() == null || job.lastCheckpointPath().isEmpty()) {
      return false;
    }
    return CheckpointLoader.load(Path.of(job.lastCheckpointPath()))
        .operators()
        .get(operatorUid)
        .subtasks()
        .values()
        .stream()
        .flatMap(subtask -> subtask.listStates().keySet().stream())
        .anyMatch(InFlightRecords::isInFlightState);
  }

  /**
   * Every id once, and the counts of each key exactly 1 to the number of ids of that key, as a
   * plain loop over the ids counts them: a record replayed twice or lost would shift them.
   */
  private static void assertEachIdCountedOnce(Path output) throws Exception {
    Map<String, Integer> lines = CommittedOutput.lineCounts(output);
    assertThat(lines.values()).containsOnly(1);
    Map<Long, Long> idsByKey = new TreeMap<>();
    for (long id = 0; id < RECORDS; id++) {
      idsByKey.merge(id % SlowKeyedCountJob.KEYS, 1L, Long::sum);
    }
    Map<Long, Integer> idOnce = new HashMap<>();
    Map<Long, List<Long>> countsByKey = new TreeMap<>();
    for (String line : lines.keySet()) {
      String[] fields = line.split(" ");
      idOnce.merge(Long.parseLong(fields[0]), 1, Integer::sum);
      countsByKey
          .computeIfAbsent(Long.parseLong(fields[1]), key -> new ArrayList<>())
          .add(Long.parseLong(fields[2]));
    }
    assertThat(idOnce).hasSize(RECORDS);
    assertThat(idOnce.values()).containsOnly(1);
    assertThat(countsByKey.keySet()).isEqualTo(idsByKey.keySet());
    idsByKey.forEach(
        (key, ids) -> {
          List<Long> expected = new ArrayList<>();
          for (long count = 1; count <= ids; count++) {
            expected.add(count);
          }
          assertThat(countsByKey.get(key)).as("counts of key %d", key).hasSameElementsAs(expected);
          assertThat(countsByKey.get(key)).hasSize(expected.size());
        });
  }
}

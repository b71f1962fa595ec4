package io.weir.cluster.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.state.StateSerializer;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.CommittedOutput;
import io.weir.cluster.SlowKeyedCountJob;
import io.weir.cluster.jobmanager.JobManager;
import io.weir.cluster.jobmanager.JobManagerOptions;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import io.weir.runtime.monitor.InputChannelView;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adaptive in-flight data on a job manager and two task managers of one slot each in this JVM: a
 * keyed count slower than its input, so that each count subtask's gate has a channel from the
 * source beside it and one from the source on the other task manager, both backpressured. The
 * figures the job manager shows for every channel stay near the target, aligned checkpoints
 * complete meanwhile, and every id is committed once.
 */
@Timeout(300)
class RemoteAdaptiveCreditClusterTest {
  private static final int RECORDS = 30_000;
  private static final int RATE_PER_SOURCE = 5_000;
  private static final long TARGET_MILLIS = 300;

  /**
   * The count's slowed map takes a millisecond a record, so each count subtask processes at most a
   * thousand a second: its gate's target holds at most this many records.
   */
  private static final int SLOWED_MICROS = 1_000;

  private static final long TARGET_RECORDS_AT_MOST = TARGET_MILLIS * 1_000 / SLOWED_MICROS;

  /**
   * What full batches of 512 records hold in flight to a count subtask's gate of two channels: the
   * four it holds, one its local sender fills, and the remote sender's four credits and the one it
   * fills.
   */
  private static final long FULL_BATCHES_IN_FLIGHT = 10 * 512;

  /** A long id in flight: its tag, its timestamp and its Java serialization. */
  private static final long RECORD_BYTES =
      1 + Long.BYTES + StateSerializer.java().serialize(0L).length;

  @TempDir Path directory;
  private final ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();

  @AfterEach
  void stopSampling() {
    sampler.shutdownNow();
  }

  @Test
  void when_countIsSlowerThanItsRemoteInput_then_eachChannelHoldsAboutTheTarget() throws Exception {
    Path output = directory.resolve("out");
    Settled settled = new Settled();
    try (JobManager jobManager = startJobManager();
        TaskManager first = TaskManager.start(taskManager(jobManager));
        TaskManager second = TaskManager.start(taskManager(jobManager));
        ClusterClient client =
            new ClusterClient(new HostAndPort("127.0.0.1", jobManager.port()), "")) {
      // given: the count a fifth as fast as its input, the in-flight target 300 ms
      JobStatus submitted =
          client.submit(
              new JobSubmission(
                  SlowKeyedCountJob.class.getName(),
                  List.of(
                      output.toString(),
                      "" + RECORDS,
                      "" + RATE_PER_SOURCE,
                      "" + SLOWED_MICROS,
                      "" + TARGET_MILLIS),
                  null,
                  null,
                  null,
                  false));
      String jobId = submitted.jobId();

      // when: it runs, its figures read as the REST API reads them once each count subtask worked
      // through the full batches sent before its gate's first measurement, while the sources emit
      sampler.scheduleAtFixedRate(
          () -> jobManager.monitor().job(jobId).ifPresent(job -> settled.sample(job, client)),
          0,
          50,
          TimeUnit.MILLISECONDS);
      await().atMost(Duration.ofSeconds(240)).until(() -> client.job(jobId).isTerminal());
      sampler.shutdownNow();
      sampler.awaitTermination(10, TimeUnit.SECONDS);

      // then: every id committed once
      JobStatus ended = client.job(jobId);
      assertThat(ended.state()).as(ended.message()).isEqualTo("FINISHED");
      assertThat(ended.restarts()).isZero();
      Map<Long, Integer> ids = new HashMap<>();
      CommittedOutput.lineCounts(output)
          .forEach(
              (line, times) -> ids.merge(Long.parseLong(line.split(" ")[0]), times, Integer::sum));
      assertThat(ids).hasSize(RECORDS).containsKeys(0L, RECORDS - 1L);
      assertThat(ids.values()).containsOnly(1);
    }
    // and while the count held its sources back, aligned checkpoints completed
    assertThat(settled.samples.get()).isGreaterThanOrEqualTo(5);
    assertThat(settled.sourcesBlockedMillis.lastGrowth()).isPositive();
    assertThat(settled.checkpoints.lastGrowth()).isGreaterThanOrEqualTo(2);
    // and each channel, the remote one of each gate too, held about the target's records
    assertThat(settled.mostChannelRecords.get())
        .isPositive()
        .isLessThanOrEqualTo(2 * TARGET_RECORDS_AT_MOST);
    assertThat(settled.mostChannelBytes.get())
        .isPositive()
        .isLessThanOrEqualTo(2 * TARGET_RECORDS_AT_MOST * RECORD_BYTES);
    assertThat(settled.mostGateRecords.get()).isLessThanOrEqualTo(2 * TARGET_RECORDS_AT_MOST);
  }

  /** The most the count's channels held once settled, and what grew meanwhile. */
  private static final class Settled {
    final AtomicLong samples = new AtomicLong();
    final AtomicLong mostChannelRecords = new AtomicLong();
    final AtomicLong mostChannelBytes = new AtomicLong();
    final AtomicLong mostGateRecords = new AtomicLong();
    final Span sourcesBlockedMillis = new Span();
    final Span checkpoints = new Span();

    void sample(JobDetail job, ClusterClient client) {
      List<SubtaskView> subtasks =
          job.tasks().stream().map(TaskView::subtasks).flatMap(List::stream).toList();
      List<SubtaskView> counts =
          subtasks.stream().filter(subtask -> !subtask.inputChannels().isEmpty()).toList();
      List<SubtaskView> sources =
          subtasks.stream().filter(subtask -> subtask.inputChannels().isEmpty()).toList();
      boolean isSettled =
          counts.size() == 2
              && counts.stream().allMatch(count -> count.recordsIn() > FULL_BATCHES_IN_FLIGHT)
              && sources.stream().mapToLong(SubtaskView::recordsOut).sum() < RECORDS;
      if (!isSettled) {
        return;
      }
      samples.incrementAndGet();
      for (SubtaskView count : counts) {
        long gateRecords = 0;
        for (InputChannelView channel : count.inputChannels()) {
          mostChannelRecords.accumulateAndGet(channel.queuedRecords(), Math::max);
          mostChannelBytes.accumulateAndGet(channel.queuedBytes(), Math::max);
          gateRecords += channel.queuedRecords();
        }
        mostGateRecords.accumulateAndGet(gateRecords, Math::max);
      }
      sourcesBlockedMillis.see(
          sources.stream().mapToLong(SubtaskView::blockedOnOutputMillis).sum());
      try {
        checkpoints.see(client.job(job.id()).lastCheckpointId());
      } catch (Exception e) {
        // the next sample asks again
      }
    }
  }

  /** The first and the latest value seen of a figure that only grows. */
  private static final class Span {
    private long first = -1;
    private long latest = -1;

    synchronized void see(long value) {
      if (first < 0) {
        first = value;
      }
      latest = value;
    }

    synchronized long lastGrowth() {
      return latest - first;
    }
  }

  private JobManager startJobManager() throws Exception {
    return JobManager.start(
        new JobManagerOptions(
            "127.0.0.1", 0, "", Duration.ofSeconds(3), directory.resolve("checkpoints")));
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

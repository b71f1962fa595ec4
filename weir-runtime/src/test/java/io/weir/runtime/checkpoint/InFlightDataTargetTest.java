package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.runtime.execution.LocalJobExecutor;
import io.weir.runtime.execution.LocalJobs;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.SubtaskView;
import io.weir.runtime.monitor.TaskView;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adaptive in-flight data behind a slow operator, in real tasks: the records queued in front of the
 * operator shrink to about the target time of what it processes. Unaligned checkpoints store
 * exactly what is in flight when their barrier passes, so each checkpoint measures the queue; with
 * aligned ones the gate's own figures, as the dashboard reads them, do.
 */
@Timeout(180)
class InFlightDataTargetTest {
  private static final long RECORDS = 10_000;
  private static final Duration TARGET = Duration.ofMillis(200);

  /**
   * The recorder sleeps a millisecond a record, so it processes at most a thousand a second: the
   * target holds at most this many records.
   */
  private static final long TARGET_RECORDS_AT_MOST = TARGET.toMillis();

  /**
   * Full batches of 512 records, sent before the first measurement, that may be in flight besides
   * those the gate holds: four the source's output holds while barriers overtake it, one it fills,
   * and the rest of one the recorder stopped for a barrier's announcement.
   */
  private static final long FULL_BATCHES_BESIDE_THE_GATE = 6 * 512;

  @TempDir Path checkpointRoot;

  @Test
  void when_anOperatorIsSlow_then_theRecordsInFlightToItHoldAboutTheTargetTime() throws Exception {
    // given
    InFlightJob job = new InFlightJob(checkpointRoot, "in-flight-target", RECORDS);

    // when
    JobResult result =
        job.run(env -> env.config().enableUnalignedCheckpoints().inFlightDataTarget(TARGET));

    // then: every id counted once, processed or in flight, at every checkpoint
    List<InFlightJob.Observed> checkpoints = job.checkpoints();
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    checkpoints.forEach(InFlightJob.Observed::assertHoldsEachIdBeforeTheBarrierOnce);
    // and once the full batches queued before the first measurement drained, what is in flight
    // stays near the target (full batches would hold more than two thousand records); the source
    // runs ahead of them by what may be in flight beside the gate
    List<InFlightJob.Observed> settled =
        checkpoints.stream()
            .filter(
                checkpoint ->
                    checkpoint.beforeBarrier() > RECORDS / 2 + FULL_BATCHES_BESIDE_THE_GATE)
            .toList();
    assertThat(settled).hasSizeGreaterThanOrEqualTo(3);
    assertThat(settled)
        .allSatisfy(
            checkpoint ->
                assertThat(checkpoint.inFlight())
                    .as("records in flight at %s", checkpoint.checkpoint())
                    .hasSizeLessThanOrEqualTo((int) (2 * TARGET_RECORDS_AT_MOST)));
    assertThat(settled).anySatisfy(checkpoint -> assertThat(checkpoint.inFlight()).isNotEmpty());
  }

  @Test
  void when_anOperatorIsSlowAndCheckpointsAligned_then_itsGateHoldsAboutTheTargetTime()
      throws Exception {
    // given: the job's views as the dashboard reads them, sampled while it runs
    InFlightJob job = new InFlightJob(checkpointRoot, "in-flight-target-aligned", RECORDS);
    LocalJobs jobs = new LocalJobs();
    AtomicLong mostQueuedBytes = new AtomicLong();
    AtomicLong mostQueuedRecords = new AtomicLong();
    ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
    sampler.scheduleAtFixedRate(
        () -> sampleSettled(jobs, mostQueuedRecords, mostQueuedBytes),
        0,
        20,
        TimeUnit.MILLISECONDS);

    // when
    JobResult result;
    StreamEnvironment.setContext(new StreamEnvironment.Context(new LocalJobExecutor(jobs), null));
    try {
      result = job.run(env -> env.config().inFlightDataTarget(TARGET));
    } finally {
      StreamEnvironment.clearContext();
      sampler.shutdownNow();
    }

    // then: every id counted once at every checkpoint
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    job.checkpoints().forEach(InFlightJob.Observed::assertHoldsEachIdBeforeTheBarrierOnce);
    // and, once settled, the gate in front of the recorder held about the target's records
    assertThat(mostQueuedRecords.get())
        .isPositive()
        .isLessThanOrEqualTo(2 * TARGET_RECORDS_AT_MOST);
    assertThat(mostQueuedBytes.get()).isPositive();
  }

  /** The most the recorder's gate held, once it processed half of the records. */
  private static void sampleSettled(LocalJobs jobs, AtomicLong records, AtomicLong bytes) {
    jobs.jobs().stream()
        .flatMap(overview -> jobs.job(overview.id()).map(JobDetail::tasks).stream())
        .flatMap(List::stream)
        .map(TaskView::subtasks)
        .flatMap(List::stream)
        .filter(subtask -> !subtask.inputChannels().isEmpty())
        .filter(subtask -> subtask.recordsIn() > RECORDS / 2)
        .forEach(
            subtask -> {
              records.accumulateAndGet(queuedRecords(subtask), Math::max);
              bytes.accumulateAndGet(subtask.queuedBytes(), Math::max);
            });
  }

  private static long queuedRecords(SubtaskView subtask) {
    return subtask.inputChannels().stream().mapToLong(channel -> channel.queuedRecords()).sum();
  }
}

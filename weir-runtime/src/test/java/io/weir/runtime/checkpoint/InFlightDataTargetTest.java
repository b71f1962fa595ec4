package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Adaptive in-flight data behind a slow operator, in real tasks: the records queued in front of the
 * operator shrink to about the target time of what it processes. Unaligned checkpoints store
 * exactly what is in flight when their barrier passes, so each checkpoint measures the queue.
 */
@Timeout(180)
class InFlightDataTargetTest {
  private static final long RECORDS = 6_000;
  private static final Duration TARGET = Duration.ofMillis(200);

  /**
   * The recorder sleeps a millisecond a record, so it processes at most a thousand a second: the
   * target holds at most this many records.
   */
  private static final long TARGET_RECORDS_AT_MOST = TARGET.toMillis();

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
    // stays near the target (full batches would hold more than two thousand records)
    List<InFlightJob.Observed> settled =
        checkpoints.stream()
            .filter(checkpoint -> checkpoint.beforeBarrier() > RECORDS / 2)
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
}

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
 * Unaligned checkpoints behind a slow operator, observed in the checkpoints: the barrier overtakes
 * the records queued in the operator's gate, the snapshot is taken while they are still queued, and
 * they are stored with it; processed and in flight together, each checkpoint holds every id before
 * the source's barrier exactly once.
 */
@Timeout(120)
class UnalignedCheckpointTest {
  @TempDir Path checkpointRoot;

  @Test
  void when_operatorIsSlow_then_barrierOvertakesQueuedRecordsAndStoresThemInFlight()
      throws Exception {
    // given
    InFlightJob job = new InFlightJob(checkpointRoot, "unaligned");

    // when
    JobResult result = job.run(env -> env.config().enableUnalignedCheckpoints());

    // then
    List<InFlightJob.Observed> checkpoints = job.checkpoints();
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    checkpoints.forEach(InFlightJob.Observed::assertHoldsEachIdBeforeTheBarrierOnce);
    assertThat(checkpoints)
        .as("checkpoints taken while records were queued behind the barrier")
        .anySatisfy(checkpoint -> assertThat(checkpoint.inFlight()).isNotEmpty());
  }

  @Test
  void when_alignmentWaitsLongerThanTheTimeout_then_theCheckpointSwitchesToUnaligned()
      throws Exception {
    // given
    InFlightJob job = new InFlightJob(checkpointRoot, "aligned-timeout");

    // when
    JobResult result =
        job.run(
            env ->
                env.config()
                    .enableUnalignedCheckpoints()
                    .alignedCheckpointTimeout(Duration.ofMillis(20)));

    // then
    List<InFlightJob.Observed> checkpoints = job.checkpoints();
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    checkpoints.forEach(InFlightJob.Observed::assertHoldsEachIdBeforeTheBarrierOnce);
    assertThat(checkpoints)
        .anySatisfy(checkpoint -> assertThat(checkpoint.inFlight()).isNotEmpty());
  }

  @Test
  void when_alignmentEndsWithinTheTimeout_then_theCheckpointStaysAligned() throws Exception {
    // given
    InFlightJob job = new InFlightJob(checkpointRoot, "aligned-within-timeout");

    // when
    JobResult result =
        job.run(
            env ->
                env.config()
                    .enableUnalignedCheckpoints()
                    .alignedCheckpointTimeout(Duration.ofMinutes(10)));

    // then
    List<InFlightJob.Observed> checkpoints = job.checkpoints();
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(1);
    checkpoints.forEach(InFlightJob.Observed::assertHoldsEachIdBeforeTheBarrierOnce);
    assertThat(checkpoints).allSatisfy(checkpoint -> assertThat(checkpoint.inFlight()).isEmpty());
  }
}

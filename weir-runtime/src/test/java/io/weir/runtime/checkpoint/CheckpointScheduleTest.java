package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobConfig;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CheckpointScheduleTest {
  private static final long INTERVAL = 1_000;
  private static final long MIN_PAUSE = 300;

  private final CheckpointSchedule schedule =
      new CheckpointSchedule(
          new JobConfig()
              .checkpointInterval(Duration.ofMillis(INTERVAL))
              .minPauseBetweenCheckpoints(Duration.ofMillis(MIN_PAUSE)));

  @Test
  void when_aCheckpointWasTriggered_then_theNextIsDueAnIntervalAfterTheTrigger() {
    // given
    schedule.startAt(1_000);
    schedule.triggering(1_050);
    schedule.triggered();

    // when / then
    assertThat(schedule.dueMillis()).isEqualTo(2_050);
  }

  @Test
  void when_theFirstOutputStartsBetweenTriggers_then_theNextIsDueAtOnceAndOnlyOnce() {
    // given: a trigger without output, then the first record at 1_400
    schedule.startAt(1_000);
    schedule.triggering(1_000);
    schedule.triggered();

    // when
    boolean first = schedule.outputStarted(1_400);
    boolean second = schedule.outputStarted(1_600);

    // then: due at the first output; once a checkpoint carries it, an interval again
    assertThat(first).isTrue();
    assertThat(second).isFalse();
    assertThat(schedule.dueMillis()).isEqualTo(1_400);
    schedule.triggering(1_400);
    schedule.triggered();
    assertThat(schedule.dueMillis()).isEqualTo(2_400);
  }

  @Test
  void when_aTriggerCouldNotClaimItsId_then_theFirstOutputStillWaitsForTheNext() {
    // given: the first output, then a trigger that failed before it claimed its checkpoint id
    schedule.startAt(1_000);
    schedule.outputStarted(500);
    schedule.triggering(1_000);

    // when / then: still due from the output on
    assertThat(schedule.dueMillis()).isEqualTo(500);
  }

  @Test
  void when_aCheckpointCompletedLate_then_theMinimumPauseHoldsTheNextBack() {
    // given: triggered at 1_000, completed at 1_900
    schedule.startAt(1_000);
    schedule.triggering(1_000);
    schedule.triggered();
    assertThat(schedule.noneCompleted()).isTrue();

    // when
    schedule.completed(1_900);

    // then: not at 2_000 but a minimum pause after the completion
    assertThat(schedule.noneCompleted()).isFalse();
    assertThat(schedule.dueMillis()).isEqualTo(2_200);
  }
}

package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.jobmaster.JobState;
import org.junit.jupiter.api.Test;

class LifecycleStatesTest {
  @Test
  void when_checkpointEnded_then_itCannotEndAgain() {
    CheckpointStatus completed = CheckpointStatus.PENDING.moveTo(CheckpointStatus.COMPLETED, 7);

    assertThatThrownBy(() -> completed.moveTo(CheckpointStatus.SUBSUMED, 7))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Checkpoint 7 cannot move from COMPLETED to SUBSUMED");
  }

  @Test
  void when_coordinatorShutDown_then_periodicCheckpointsCannotStartAgain() {
    CoordinatorState shutDown =
        CoordinatorState.STOPPED
            .moveTo(CoordinatorState.PERIODIC)
            .moveTo(CoordinatorState.STOPPED)
            .moveTo(CoordinatorState.SHUT_DOWN);

    assertThat(shutDown.canMoveTo(CoordinatorState.PERIODIC)).isFalse();
    assertThat(shutDown.canMoveTo(CoordinatorState.STOPPED)).isFalse();
  }

  @Test
  void when_jobRestarts_then_itRunsAgainUntilAFinalState() {
    JobState finished =
        JobState.CREATED
            .moveTo(JobState.RUNNING, "seed")
            .moveTo(JobState.RESTARTING, "seed")
            .moveTo(JobState.RUNNING, "seed")
            .moveTo(JobState.FINISHED, "seed");

    assertThat(finished.isFinal()).isTrue();
    assertThatThrownBy(() -> finished.moveTo(JobState.RUNNING, "seed"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Job seed cannot move from FINISHED to RUNNING");
    assertThat(JobState.CREATED.canMoveTo(JobState.RESTARTING)).isFalse();
  }
}

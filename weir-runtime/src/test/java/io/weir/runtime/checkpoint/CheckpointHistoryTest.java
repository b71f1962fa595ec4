package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class CheckpointHistoryTest {

  @Test
  void when_checkpointsEnd_then_historyHoldsStatusDurationSizeAndAcksNewestFirst() {
    CheckpointHistory history = new CheckpointHistory();
    history.triggered(1, false, 1_000);
    history.acknowledged(1, "task-1", 0, 100, 1_010);
    history.acknowledged(1, "task-2", 1, 50, 1_030);
    history.completed(1, 1_040);
    history.triggered(2, false, 2_000);
    history.aborted(2, 2_500, "declined by task-2 subtask 0: disk full");
    history.triggered(3, true, 3_000);
    history.acknowledged(3, "task-1", 0, 7, 3_020);

    List<CheckpointStats> stats = history.newestFirst();

    assertThat(stats).extracting(CheckpointStats::checkpointId).containsExactly(3L, 2L, 1L);
    CheckpointStats inProgress = stats.get(0);
    assertThat(inProgress.status()).isEqualTo(CheckpointStats.Status.IN_PROGRESS);
    assertThat(inProgress.savepoint()).isTrue();
    assertThat(inProgress.durationMillis()).isEqualTo(20);
    assertThat(stats.get(1).status()).isEqualTo(CheckpointStats.Status.ABORTED);
    assertThat(stats.get(1).failure()).isEqualTo("declined by task-2 subtask 0: disk full");
    assertThat(stats.get(1).durationMillis()).isEqualTo(500);
    CheckpointStats completed = stats.get(2);
    assertThat(completed.status()).isEqualTo(CheckpointStats.Status.COMPLETED);
    assertThat(completed.durationMillis()).isEqualTo(40);
    assertThat(completed.sizeBytes()).isEqualTo(150);
    assertThat(completed.acks())
        .containsExactly(
            new CheckpointStats.Ack("task-1", 0, 10, 100),
            new CheckpointStats.Ack("task-2", 1, 30, 50));
  }

  @Test
  void when_moreCheckpointsThanCapacity_then_theOldestAreDropped() {
    CheckpointHistory history = new CheckpointHistory(2);
    for (long id = 1; id <= 5; id++) {
      history.triggered(id, false, id * 1_000);
      history.completed(id, id * 1_000 + 5);
    }

    assertThat(history.newestFirst())
        .extracting(CheckpointStats::checkpointId)
        .containsExactly(5L, 4L);
  }

  @Test
  void when_anEndedCheckpointIsAbortedLater_then_itStaysCompleted() {
    CheckpointHistory history = new CheckpointHistory();
    history.triggered(1, false, 0);
    history.completed(1, 10);
    history.aborted(1, 20, "the job attempt ended");

    assertThat(history.newestFirst().get(0).status()).isEqualTo(CheckpointStats.Status.COMPLETED);
  }
}

package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.JobConfig;
import io.weir.runtime.checkpoint.storage.MemoryCheckpointStorage;
import io.weir.runtime.failpoint.Failpoints;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The job's checkpoint storage as owners by turns use it: a checkpoint whose id cannot be claimed
 * (another owner took over) is never triggered, and one handed over claims nothing.
 */
class RoutingCheckpointStorageTest {
  private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
  private final List<Long> triggered = new ArrayList<>();
  private final List<Long> claimed = new ArrayList<>();
  private final RoutingCheckpointStorage storage =
      new RoutingCheckpointStorage(new MemoryCheckpointStorage(1));

  @AfterEach
  void stopTimer() {
    timer.shutdownNow();
  }

  @Test
  void when_idCannotBeClaimed_then_theCheckpointIsNotTriggered() {
    // given: claims that another owner ends after checkpoint 1
    storage.claimIdsWith(claimsUpTo(1));
    CheckpointCoordinator coordinator = coordinator(1);

    // when
    CompletableFuture<CompletedCheckpoint> first = coordinator.trigger();
    CompletableFuture<CompletedCheckpoint> second = coordinator.trigger();

    // then
    assertThat(first).isNotDone();
    assertThat(second).isCompletedExceptionally();
    assertThat(claimed).containsExactly(1L);
    assertThat(triggered).containsExactly(1L);
  }

  @Test
  void when_handedOver_then_noIdIsClaimed() {
    // given
    storage.claimIdsWith(claimsUpTo(Long.MAX_VALUE));

    // when
    storage.handOver();

    // then
    assertThatThrownBy(() -> storage.claimCheckpointId(5))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no longer owns");
    assertThat(claimed).isEmpty();
  }

  @Test
  void when_claimsRecorded_then_theFirstUnclaimedIdIsAboveThem() throws Exception {
    // given
    storage.claimIdsWith(claimsUpTo(Long.MAX_VALUE));

    // when
    storage.claimCheckpointId(7);

    // then
    assertThat(storage.firstUnclaimedCheckpointId()).isEqualTo(8);
  }

  /** Claims that record each id and refuse every one above {@code last}. */
  private CheckpointIdClaims claimsUpTo(long last) {
    return new CheckpointIdClaims() {
      @Override
      public long firstUnclaimed() {
        return claimed.stream().mapToLong(Long::longValue).max().orElse(0) + 1;
      }

      @Override
      public void claim(long checkpointId) throws IOException {
        if (checkpointId > last) {
          throw new IOException("another owner took over");
        }
        claimed.add(checkpointId);
      }
    };
  }

  private CheckpointCoordinator coordinator(long firstCheckpointId) {
    return new CheckpointCoordinator(
        "job",
        List.of(),
        Set.of(new SubtaskKey("task", 0)),
        storage,
        new JobConfig(),
        new CheckpointCoordinator.TaskGateway() {
          @Override
          public void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind) {
            triggered.add(checkpointId);
          }

          @Override
          public void notifyCheckpointComplete(long checkpointId) {}

          @Override
          public void notifyCheckpointAborted(long checkpointId) {}
        },
        timer,
        Clock.systemUTC(),
        firstCheckpointId,
        checkpoint -> {},
        new CheckpointHistory(),
        Failpoints.none());
  }
}

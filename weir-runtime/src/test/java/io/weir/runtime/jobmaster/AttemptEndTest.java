package io.weir.runtime.jobmaster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobConfig;
import io.weir.api.source.SourceSplit;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.SavepointStop;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.checkpoint.storage.MemoryCheckpointStorage;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.TaskManagerGateway;
import io.weir.runtime.jobmaster.AttemptEvent.FinalCheckpointDone;
import io.weir.runtime.jobmaster.AttemptEvent.StopSavepointDone;
import io.weir.runtime.state.TaskSnapshot;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How an attempt of one subtask ends, driven as the attempt's thread drives it: each event the
 * coordinator queues is handed back to the {@link AttemptEnd}, against a real checkpoint
 * coordinator and a task manager that records what it was asked.
 */
class AttemptEndTest {
  private static final SubtaskKey SUBTASK = new SubtaskKey("task", 0);

  @TempDir Path directory;

  private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1);
  private final MemoryCheckpointStorage checkpoints = new MemoryCheckpointStorage(1);
  private final RecordingTaskManager taskManager = new RecordingTaskManager();
  private final AttemptTaskManagers taskManagers = new AttemptTaskManagers(List.of(taskManager));
  private final CheckpointCoordinator coordinator =
      new CheckpointCoordinator(
          "job",
          List.of(),
          Set.of(SUBTASK),
          new RoutingCheckpointStorage(checkpoints),
          new JobConfig(),
          taskManagers,
          timer,
          Clock.systemUTC(),
          1,
          checkpoint -> {},
          new CheckpointHistory(),
          Failpoints.none());
  private final BlockingQueue<AttemptEvent> events = new LinkedBlockingQueue<>();
  private final AttemptEnd end = new AttemptEnd(coordinator, taskManagers, 1, events::add);

  @AfterEach
  void stopTimer() {
    timer.shutdownNow();
  }

  @Test
  void when_theFinalCheckpointFailsEveryTry_then_theAttemptFailsAfterFiveTries() throws Exception {
    // given: the subtask finished its data, which begins the final checkpoint
    end.dataFinished();

    // when: the subtask declines every try
    List<Throwable> outcomes = new ArrayList<>();
    for (int tryNumber = 1; tryNumber <= 5; tryNumber++) {
      coordinator.decline(nextTrigger(), "task", 0, new Exception("disk full"));
      outcomes.add(end.finalCheckpointDone(next(FinalCheckpointDone.class).failure()));
    }
    Throwable failure = outcomes.get(4);
    end.fail(failure);

    // then: four tries were taken again, the fifth failure is the attempt's
    assertThat(outcomes.subList(0, 4)).containsOnlyNulls();
    assertThat(taskManager.triggerCount).hasValue(5);
    assertThat(failure)
        .hasMessage("The final checkpoint failed 5 times")
        .cause()
        .hasMessageContaining("disk full");
    assertThat(taskManager.terminated).hasValue(0);
    assertThat(taskManager.cancelled).hasValue(1);
  }

  @Test
  void when_theAttemptFailsWhileStopping_then_everyTaskManagerIsCancelledAndTheStopFails() {
    // given: a stop whose savepoint is pending
    SavepointStop stop = new SavepointStop(directory, new MemoryCheckpointStorage(1));
    end.stopRequested(stop);

    // when
    end.fail(new IllegalStateException("Task manager tm-1 was lost"));

    // then
    assertThat(stop.result())
        .failsWithin(Duration.ofSeconds(10))
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining(
            "The job failed while stopping with a savepoint: Task manager tm-1 was lost");
    assertThat(taskManager.cancelled).hasValue(1);
    assertThat(end.stoppedWithSavepoint()).isFalse();
  }

  @Test
  void when_theStopsSavepointCompletes_then_theSubtaskTerminatesAndTheStopEndsWithIt()
      throws Exception {
    // given: a stop whose savepoint the subtask acknowledged
    MemoryCheckpointStorage savepoints = new MemoryCheckpointStorage(1);
    SavepointStop stop = new SavepointStop(directory, savepoints);
    end.stopRequested(stop);
    long savepointId = nextTrigger();
    StateHandle state =
        savepoints.storeTaskState(savepointId, "task", 0, new TaskSnapshot(Map.of()));
    coordinator.acknowledge(savepointId, "task", 0, state);

    // when: the attempt hears of it, and then of the subtask's end
    StopSavepointDone done = next(StopSavepointDone.class);
    Throwable failure = end.stopSavepointDone(done.savepoint(), done.failure());
    end.succeed();

    // then
    assertThat(failure).isNull();
    assertThat(taskManager.terminated).hasValue(1);
    CompletedCheckpoint savepoint = stop.result().get(10, TimeUnit.SECONDS);
    assertThat(savepoint.checkpointId()).isEqualTo(savepointId);
    assertThat(end.stoppedWithSavepoint()).isTrue();
    assertThat(taskManager.triggerCount).hasValue(1);
  }

  private long nextTrigger() throws InterruptedException {
    Long checkpointId = taskManager.triggered.poll(10, TimeUnit.SECONDS);
    assertThat(checkpointId).as("a checkpoint triggered at the task manager").isNotNull();
    return checkpointId;
  }

  private <T extends AttemptEvent> T next(Class<T> type) throws InterruptedException {
    AttemptEvent event = events.poll(10, TimeUnit.SECONDS);
    assertThat(event).isInstanceOf(type);
    return type.cast(event);
  }

  /** Remembers each checkpoint it was asked to trigger, and counts its terminates and cancels. */
  private static final class RecordingTaskManager implements TaskManagerGateway {
    final BlockingQueue<Long> triggered = new LinkedBlockingQueue<>();
    final AtomicInteger triggerCount = new AtomicInteger();
    final AtomicInteger terminated = new AtomicInteger();
    final AtomicInteger cancelled = new AtomicInteger();

    @Override
    public String taskManagerId() {
      return "tm-1";
    }

    @Override
    public void deploy(AttemptDeployment deployment, JobManagerGateway jobManager) {}

    @Override
    public void start() {}

    @Override
    public void triggerCheckpoint(
        long checkpointId, long timestamp, Path savepointDirectory, CheckpointKind kind) {
      triggerCount.incrementAndGet();
      triggered.add(checkpointId);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void notifyCheckpointAborted(long checkpointId) {}

    @Override
    public void assignSplits(String vertexId, int subtask, List<SourceSplit> splits) {}

    @Override
    public void signalNoMoreSplits(String vertexId, int subtask) {}

    @Override
    public void terminate() {
      terminated.incrementAndGet();
    }

    @Override
    public void cancel() {
      cancelled.incrementAndGet();
    }
  }
}

package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobConfig;
import io.weir.runtime.checkpoint.storage.MemoryCheckpointStorage;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.state.TaskSnapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * When the coordinator triggers periodic checkpoints: exactly an interval after the previous
 * trigger, not at the next of a series of polls. The timer here runs nothing by itself; the test
 * reads the delays the coordinator asked for and runs the due action at the time it chose.
 */
class PeriodicTriggerTest {
  private static final long INTERVAL = 1000;
  private static final long START = 50_000;

  private final MovableClock clock = new MovableClock(START);
  private final ManualTimer timer = new ManualTimer();
  private final List<Long> triggers = new ArrayList<>();
  private final MemoryCheckpointStorage storage = new MemoryCheckpointStorage(1);
  private final CheckpointCoordinator coordinator =
      new CheckpointCoordinator(
          "job",
          List.of(),
          Set.of(new SubtaskKey("task", 0)),
          storage,
          new JobConfig().checkpointInterval(Duration.ofMillis(INTERVAL)),
          new CheckpointCoordinator.TaskGateway() {
            @Override
            public void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind) {
              triggers.add(timestamp);
            }

            @Override
            public void notifyCheckpointComplete(long checkpointId) {}

            @Override
            public void notifyCheckpointAborted(long checkpointId) {}
          },
          timer,
          clock,
          1,
          checkpoint -> {},
          new CheckpointHistory(),
          Failpoints.none());

  @AfterEach
  void stopTimer() {
    timer.shutdownNow();
  }

  @Test
  void when_startedNow_then_firstAtOnceAndEachNextOneIntervalAfterThePreviousTrigger()
      throws Exception {
    // when
    coordinator.startPeriodicNow();
    runDueTrigger();
    clock.advance(130);
    acknowledge(1);
    runDueTrigger();
    clock.advance(70);
    acknowledge(2);

    // then
    assertThat(triggers).containsExactly(START, START + INTERVAL);
    assertThat(timer.lastDelayMillis()).isEqualTo(INTERVAL - 70);
  }

  @Test
  void when_started_then_firstOneIntervalLater() {
    // when
    coordinator.startPeriodic();

    // then
    assertThat(timer.lastDelayMillis()).isEqualTo(INTERVAL);
    assertThat(triggers).isEmpty();
  }

  @Test
  void when_checkpointOutlastsInterval_then_nextIsTriggeredWhenItCompletes() throws Exception {
    // given
    coordinator.startPeriodicNow();
    runDueTrigger();

    // when: the timer fires while checkpoint 1 is still pending
    clock.advance(INTERVAL + 300);
    timer.runLast();
    int beforeCompletion = triggers.size();
    acknowledge(1);
    runDueTrigger();

    // then
    assertThat(beforeCompletion).isEqualTo(1);
    assertThat(triggers).containsExactly(START, START + INTERVAL + 300);
  }

  @Test
  void when_firstOutputReachesASink_then_theNextCheckpointIsTriggeredAtOnce() throws Exception {
    // given: checkpoint 1 (taken at the start, before any output) completed
    coordinator.startPeriodicNow();
    runDueTrigger();
    clock.advance(40);
    acknowledge(1);

    // when: 100 ms later a sink receives its first record
    clock.advance(60);
    coordinator.outputStarted();
    runDueTrigger();

    // then: checkpoint 2 comes now, and the next one an interval after it
    assertThat(triggers).containsExactly(START, START + 100);
    acknowledge(2);
    assertThat(timer.lastDelayMillis()).isEqualTo(INTERVAL);
  }

  @Test
  void when_firstOutputArrivesWhileACheckpointIsPending_then_theNextFollowsItsCompletion()
      throws Exception {
    // given
    coordinator.startPeriodicNow();
    runDueTrigger();

    // when: the first record reaches a sink while checkpoint 1 is pending
    clock.advance(30);
    coordinator.outputStarted();
    timer.runLast();
    int whilePending = triggers.size();
    clock.advance(50);
    acknowledge(1);
    runDueTrigger();

    // then
    assertThat(whilePending).isEqualTo(1);
    assertThat(triggers).containsExactly(START, START + 80);
  }

  @Test
  void when_outputStartedTwice_then_onlyTheFirstMakesACheckpointDue() throws Exception {
    // given: the first output's checkpoint was triggered and completed
    coordinator.startPeriodicNow();
    coordinator.outputStarted();
    runDueTrigger();
    acknowledge(1);

    // when
    clock.advance(10);
    coordinator.outputStarted();

    // then: nothing was rescheduled; the next one stays an interval after checkpoint 1
    assertThat(timer.lastDelayMillis()).isEqualTo(INTERVAL);
    assertThat(triggers).containsExactly(START);
  }

  /** Moves the clock to the periodic action's time and runs it. */
  private void runDueTrigger() {
    clock.advance(timer.lastDelayMillis());
    timer.runLast();
  }

  private void acknowledge(long checkpointId) throws Exception {
    StateHandle handle =
        storage.storeTaskState(checkpointId, "task", 0, new TaskSnapshot(Map.of()));
    coordinator.acknowledge(checkpointId, "task", 0, handle);
  }

  private static final class MovableClock extends Clock {
    private long millis;

    MovableClock(long millis) {
      this.millis = millis;
    }

    void advance(long delta) {
      millis += delta;
    }

    @Override
    public long millis() {
      return millis;
    }

    @Override
    public Instant instant() {
      return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneOffset getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  /**
   * Remembers the periodic action (any delay up to an interval; checkpoint expiries are longer)
   * instead of running it.
   */
  private static final class ManualTimer extends ScheduledThreadPoolExecutor {
    private Runnable last;
    private long lastDelayMillis = -1;

    ManualTimer() {
      super(1);
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      long millis = unit.toMillis(delay);
      if (millis <= INTERVAL) {
        last = command;
        lastDelayMillis = millis;
      }
      return new NeverRun(millis);
    }

    long lastDelayMillis() {
      return lastDelayMillis;
    }

    void runLast() {
      Runnable command = last;
      last = null;
      command.run();
    }
  }

  private record NeverRun(long delayMillis) implements ScheduledFuture<Object> {
    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(delayMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(delayMillis, other.getDelay(TimeUnit.MILLISECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return true;
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public boolean isDone() {
      return false;
    }

    @Override
    public Object get() {
      return null;
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      return null;
    }
  }
}

package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.runtime.failpoint.FailpointNames;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A completion notification that never reaches the tasks (the coordinator throws right before
 * sending it) loses nothing: the checkpoint stays complete, and the next checkpoint's notification
 * commits every transaction pending up to it.
 */
@Timeout(60)
class LostNotificationTest {
  private static final long RECORDS = 3_000;

  @BeforeEach
  void reset() {
    RecordingTwoPhaseSink.reset();
  }

  @Test
  void when_notificationOfCheckpointIsLost_then_nextNotificationCommitsBothTransactions()
      throws Exception {
    // given: the notification of the second checkpoint is dropped
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.config().failpoints(FailpointNames.COORDINATOR_NOTIFY_BEFORE + "=throw@2");
    env.enableCheckpointing(Duration.ofMillis(50));
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 1, 6_000))
        .addSink(new RecordingTwoPhaseSink());

    // when
    JobResult result = env.execute("lost-notification");

    // then
    List<long[]> notifications = List.copyOf(RecordingTwoPhaseSink.NOTIFICATIONS);
    assertThat(notifications).extracting(n -> n[0]).doesNotContain(2L).contains(1L, 3L);
    assertThat(notifications).filteredOn(n -> n[0] == 3L).extracting(n -> n[1]).containsExactly(2L);
    assertThat(result.completedCheckpoints()).isGreaterThanOrEqualTo(3);
    assertCommittedExactlyOnce();
  }

  @Test
  void when_notificationOfFinalCheckpointIsLost_then_jobStillCommitsItsOutput() throws Exception {
    // given: no periodic checkpoints, so the final checkpoint is the first one to complete
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.config().failpoints(FailpointNames.COORDINATOR_NOTIFY_BEFORE + "=throw@1");
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 1, 0))
        .addSink(new RecordingTwoPhaseSink());

    // when
    env.execute("lost-final-notification");

    // then
    assertThat(RecordingTwoPhaseSink.NOTIFICATIONS).extracting(n -> n[0]).doesNotContain(1L);
    assertCommittedExactlyOnce();
  }

  private static void assertCommittedExactlyOnce() {
    assertThat(RecordingTwoPhaseSink.committedRecords())
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RECORDS).boxed().toList());
  }
}

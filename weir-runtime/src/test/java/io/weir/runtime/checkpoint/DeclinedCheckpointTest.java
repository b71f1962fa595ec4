package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A sink that cannot begin its next transaction (e.g. its transactional ids are all pending)
 * declines the checkpoint: the checkpoint is aborted, the task goes on, its records stay in the
 * open transaction and are committed with a later checkpoint.
 */
@Timeout(60)
class DeclinedCheckpointTest {
  private static final long RECORDS = 3_000;

  @BeforeEach
  void reset() {
    RecordingTwoPhaseSink.reset();
  }

  @Test
  void when_sinkDeclinesCheckpoints_then_theTaskGoesOnAndLaterCheckpointsCommitEveryRecordOnce()
      throws Exception {
    // given: a sink that declines the first two checkpoints
    RecordingTwoPhaseSink.DECLINES.set(2);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 1, 6_000))
        .addSink(new RecordingTwoPhaseSink());

    // when
    JobResult result = env.execute("declined-checkpoints");

    // then: no restart, the declined checkpoints were never notified complete, and every record
    // was committed once by the checkpoints after them
    assertThat(result.restarts()).isZero();
    List<Long> notified =
        RecordingTwoPhaseSink.NOTIFICATIONS.stream().map(notification -> notification[0]).toList();
    assertThat(notified).doesNotContain(1L, 2L).isNotEmpty();
    assertThat(RecordingTwoPhaseSink.committedRecords())
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RECORDS).boxed().toList());
  }
}

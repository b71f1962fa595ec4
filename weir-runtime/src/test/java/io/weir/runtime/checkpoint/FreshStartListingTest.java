package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.datastream.SuppressRestartsException;
import java.time.Duration;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job's first start without a checkpoint lists what earlier runs of its sinks left open before
 * any subtask runs, as the subtasks would abort it. A listing that fails must not let the start go
 * on: it fails the attempt for the restart strategy, or the job for good when the sink says
 * restarting cannot help.
 */
@Timeout(60)
class FreshStartListingTest {
  private static final long RECORDS = 2_000;

  @BeforeEach
  void reset() {
    RecordingTwoPhaseSink.reset();
  }

  @Test
  void when_listingFailsOnce_then_theAttemptFailsAndTheNextStartListsAgain() throws Exception {
    // given
    RecordingTwoPhaseSink.LISTING_FAILURES.add(new IllegalStateException("brokers overloaded"));

    // when
    JobResult result = job().execute("listing-fails-once");

    // then: the first attempt failed before any subtask ran; the second listed and ran
    assertThat(result.restarts()).isEqualTo(1);
    assertThat(RecordingTwoPhaseSink.LISTING_FAILURES).isEmpty();
    assertThat(RecordingTwoPhaseSink.committedRecords())
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RECORDS).boxed().toList());
  }

  @Test
  void when_listingFailsForGood_then_theJobFailsNamingTheSinkAndCommitsNothing() {
    // given
    RecordingTwoPhaseSink.LISTING_FAILURES.add(
        new SuppressRestartsException("Cannot reach the external system within 3 s", null));

    // when / then
    assertThatThrownBy(() -> job().execute("listing-fails-for-good"))
        .hasMessageContaining(
            "Sink 'Sink: sink' cannot tell which transactions an earlier run left open")
        .hasMessageContaining("Cannot reach the external system within 3 s")
        .hasMessageContaining("not restarted");
    assertThat(RecordingTwoPhaseSink.committedRecords()).isEmpty();
    assertThat(RecordingTwoPhaseSink.SNAPSHOTS).isEmpty();
  }

  private static StreamEnvironment job() {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    // Each run starts from scratch: no checkpoint to reconcile its first start with.
    env.config().checkpointsInMemory(true);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ZERO));
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 2, 2_000))
        .uid("source")
        .addSink(new RecordingTwoPhaseSink())
        .name("sink")
        .uid("sink");
    return env;
  }
}

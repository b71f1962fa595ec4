package io.weir.cluster.taskmanager;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The lease runs from the send time of the heartbeat the job manager answered, never from the time
 * the answer came back: a slow answer shortens it.
 */
class TaskManagerLeaseTest {
  private static final long TIMEOUT_MILLIS = 5_000;

  private final AtomicLong nanos = new AtomicLong(-1_000_000_000L);
  private final TaskManagerLease lease = new TaskManagerLease(nanos::get);

  @Test
  void when_noHeartbeatWasAnswered_then_theLeaseIsInvalid() {
    assertThat(lease.isValid()).isFalse();
  }

  @Test
  void when_anAnswerComesLate_then_theLeaseEndsTheTimeoutAfterItsHeartbeatWasSent() {
    // given: a heartbeat sent now, answered 4 s later
    long sent = nanos.get();
    advanceMillis(4_000);
    lease.answered(sent, TIMEOUT_MILLIS);
    assertThat(lease.isValid()).isTrue();

    // when / then: valid until the timeout after the send, not after the answer
    advanceMillis(TIMEOUT_MILLIS - 4_000 - 1);
    assertThat(lease.isValid()).isTrue();
    advanceMillis(1);
    assertThat(lease.isValid()).isFalse();
  }

  @Test
  void when_anOlderHeartbeatIsAnsweredAfterANewerOne_then_theLeaseDoesNotShrink() {
    long older = nanos.get();
    advanceMillis(1_000);
    long newer = nanos.get();
    lease.answered(newer, TIMEOUT_MILLIS);
    lease.answered(older, TIMEOUT_MILLIS);

    advanceMillis(TIMEOUT_MILLIS - 1);
    assertThat(lease.isValid()).isTrue();
  }

  private void advanceMillis(long millis) {
    nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
  }
}

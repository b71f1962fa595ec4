package io.weir.cluster.jobmanager;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The job manager's durations do not move with the wall clock's steps. */
class MonotonicClockTest {
  @Test
  void when_theWallClockStepsBack_then_durationsGoOnAsTheMonotonicClockMoves() {
    // given
    MovableClock wall = new MovableClock();
    AtomicLong nanos = new AtomicLong(42);
    MonotonicClock clock = new MonotonicClock(wall, nanos::get);
    long start = clock.millis();

    // when: the wall clock is set back an hour while five seconds pass
    wall.advance(Duration.ofHours(-1));
    nanos.addAndGet(Duration.ofSeconds(5).toNanos());

    // then
    assertThat(start).isEqualTo(wall.millis() + Duration.ofHours(1).toMillis());
    assertThat(clock.millis() - start).isEqualTo(5_000);
  }
}
